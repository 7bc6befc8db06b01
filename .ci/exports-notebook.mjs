// exports-notebook.mjs EXPORTS_DIR: runs the analyst's questions, read as
// JSON [{id, sql}] on stdin with {exports} standing for EXPORTS_DIR, with
// the independent DuckDB for Node (@duckdb/node-api), and prints
// {id: [[cell, ...], ...]} with every cell as text (NULL for null).
import { DuckDBInstance } from '@duckdb/node-api';

const dir = process.argv[2];
let input = '';
for await (const chunk of process.stdin) input += chunk;
const db = await (await DuckDBInstance.create(':memory:')).connect();
const out = {};
for (const q of JSON.parse(input)) {
  const reader = await db.runAndReadAll(q.sql.replaceAll('{exports}', dir));
  out[q.id] = reader.getRows().map((row) => row.map((v) => (v === null ? 'NULL' : v.toString())));
}
console.log(JSON.stringify(out));

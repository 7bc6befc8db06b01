// exports-check.mjs EXPORTS_DIR: reads every Parquet file an export's
// manifest.json lists with two readers that share no code with the engine:
// an independent DuckDB (@duckdb/node-api) and the pure-JavaScript reader
// hyparquet (with hyparquet-compressors for ZSTD). Both must read every row
// the manifest counts. Prints "ok N files" or the differences, exit 1.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

const dir = process.argv[2];
const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'));
const db = await (await DuckDBInstance.create(':memory:')).connect();
const problems = [];
for (const f of manifest.files) {
  const file = path.join(dir, f.path);
  const reader = await db.runAndReadAll(`SELECT count(*)::BIGINT AS n FROM read_parquet('${file.replaceAll("'", "''")}')`);
  const duck = Number(reader.getRowObjects()[0].n);
  const buf = await asyncBufferFromFile(file);
  const meta = await parquetMetadataAsync(buf);
  const rows = await parquetReadObjects({ file: buf, compressors });
  if (duck !== f.rows) problems.push(`${f.path}: DuckDB reads ${duck} rows, the manifest says ${f.rows}`);
  if (Number(meta.num_rows) !== f.rows) problems.push(`${f.path}: hyparquet metadata has ${meta.num_rows} rows, the manifest says ${f.rows}`);
  if (rows.length !== f.rows) problems.push(`${f.path}: hyparquet reads ${rows.length} rows, the manifest says ${f.rows}`);
}
if (problems.length) {
  console.log(problems.join('\n'));
  process.exit(1);
}
console.log(`ok ${manifest.files.length} files`);

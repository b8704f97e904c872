// doc-pages.mjs - every sample's documentation page, opened in Chromium
//
// For each sample and language, `ddbc doc` writes the Markdown and the HTML
// page; the page is opened in headless Chromium (Debian's, driven by
// playwright-core) and checked as a reader would see it:
//   - every entity has its attribute table, with one row per attribute
//     (counted in the Markdown) and the six columns in every row;
//   - every in-page link leads to an element of the page;
//   - the page raises no script error, logs no error, loads nothing;
//   - on a phone-sized screen the page itself never scrolls sideways
//     (wide tables scroll inside their box);
//   - printed, no table is cut off;
//   - every item view holds exactly the example items its table or index
//     holds, derived here from the design itself (its YAML, read with the
//     yaml package, not by ddbc): an index holds the items that set all
//     its key attributes, with its keys and the attributes it projects;
//     the rows are counted in the page and in the Markdown;
//   - at 420 px and at 1,920 px the page does not scroll sideways, and no
//     table cell is clipped: none reaches past its table's box, none holds
//     more than it shows; both are photographed;
//   - every entity box of the diagram is a link to that entity's section.
// The samples are checked, and tests/designs/tracker.ddb.yaml, a design
// with long keys and several GSIs.
// Usage: node doc-pages.mjs DDBC SRCDIR   (env CHROMIUM: the browser;
// DDBC_SCREENSHOT_DIR: keep the screenshots there)
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import YAML from 'yaml';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [ddbc, srcdir] = process.argv.slice(2);
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const shots = process.env.DDBC_SCREENSHOT_DIR;
const entityLabel = { en: 'Entity', ja: 'エンティティ' };

let failures = 0;
let checks = 0;
function check(ok, what) {
	checks++;
	if (!ok) {
		failures++;
		console.log(`FAIL: ${what}`);
	}
}

function doc(design, format, lang) {
	return execFileSync(ddbc, ['doc', '--format', format, '--lang', lang,
		'--template', join(srcdir, 'templates'), design],
		{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

// The entities of the Markdown in order, each with its attribute rows:
// "### Entity `Name`", a paragraph maybe, then the table.
function entitiesOfMarkdown(md, lang) {
	const lines = md.split('\n');
	const head = new RegExp(`^### ${entityLabel[lang]} (\`+) ?(.*?) ?\\1$`);
	const out = [];
	for (let i = 0; i < lines.length; i++) {
		const m = head.exec(lines[i]);
		if (!m)
			continue;
		let j = i + 1;
		while (j < lines.length && !lines[j].startsWith('|'))
			j++;
		let rows = 0;
		while (j < lines.length && lines[j].startsWith('|'))
			j++, rows++;
		out.push({ name: m[2], rows: rows - 2 });
	}
	return out;
}

// ---- item views, derived from the design ------------------------------------------

const names = v => v === undefined || v === null ? [] : Array.isArray(v) ? v.map(String) : [String(v)];

// The indexes of a table as the design writes them: the table's own key,
// its GSIs, its LSIs (whose partition key is the table's).
function indexesOf(tname, t) {
	const pk = names(t.partition_key), sk = names(t.sort_key);
	const out = [{ table: tname, name: tname, pk, sk, projection: 'all', primary: true }];
	for (const [name, ix] of Object.entries(t.gsi || {}))
		out.push({ table: tname, name, pk: names(ix.partition_key), sk: names(ix.sort_key),
			projection: ix.projection ?? 'all', tablePk: pk, tableSk: sk });
	for (const [name, ix] of Object.entries(t.lsi || {}))
		out.push({ table: tname, name, pk, sk: names(ix.sort_key),
			projection: ix.projection ?? 'all', tablePk: pk, tableSk: sk });
	return out;
}

function projects(ix, attr) {
	if (ix.primary || ix.projection === 'all')
		return true;
	if ([...ix.tablePk, ...ix.tableSk].includes(attr))
		return true;
	return Array.isArray(ix.projection) && ix.projection.map(String).includes(attr);
}

const present = v => v !== undefined && v !== null;

// "table/index" -> the rows its view must have, each "entity|keys|attrs".
function expectedViews(design) {
	const tables = design.tables || {};
	const tnames = Object.keys(tables);
	const views = new Map();
	for (const tname of tnames)
		for (const ix of indexesOf(tname, tables[tname]))
			views.set(`${tname}/${ix.name}`, { ix, rows: [] });
	for (const [ename, e] of Object.entries(design.entities || {})) {
		const tname = e.table ?? (tnames.length === 1 ? tnames[0] : null);
		if (!tables[tname])
			continue;
		for (const ex of e.examples || []) {
			for (const { ix, rows } of views.values()) {
				if (ix.table !== tname)
					continue;
				const keys = [...ix.pk, ...ix.sk];
				if (!ix.primary && !keys.every(k => present(ex[k])))
					continue;
				const attrs = Object.keys(ex).filter(a => !keys.includes(a) && projects(ix, a));
				rows.push(rowKey(ename, keys.map(k => present(ex[k]) ? String(ex[k]) : ''), attrs));
			}
		}
	}
	return views;
}

function rowKey(entity, keys, attrs) {
	return `${entity}|${keys.join('|')}|${[...attrs].sort().join(',')}`;
}

// The number of rows of each "#### LABEL `name`" view table of the Markdown,
// in order.
function viewRowsOfMarkdown(md) {
	const lines = md.split('\n');
	const out = [];
	for (let i = 0; i < lines.length; i++) {
		if (!lines[i].startsWith('#### '))
			continue;
		let j = i + 1;
		while (j < lines.length && !lines[j].startsWith('|') && !lines[j].startsWith('#'))
			j++;
		let rows = 0;
		while (j < lines.length && lines[j].startsWith('|'))
			j++, rows++;
		out.push(rows ? rows - 2 : 0);
	}
	return out;
}

// Every item view of the page: its table, its index, its rows read back
// as "entity|keys|attrs" (an attribute's name is the text before ': ').
function readViews() {
	const views = [];
	let table = null;
	for (const h of document.querySelectorAll('h2.table, h4.view')) {
		const name = h.querySelector('code')?.textContent ?? '';
		if (h.matches('h2.table')) {
			table = name;
			continue;
		}
		const el = h.nextElementSibling;
		const t = el && el.matches('.table-wrap.items') ? el.querySelector('table') : null;
		const rows = t ? [...t.querySelectorAll('tbody tr')].map(tr => {
			const cells = [...tr.cells];
			const attrs = [...cells[cells.length - 1].childNodes]
				.filter(n => n.nodeType === Node.TEXT_NODE)
				.map(n => n.textContent.replace(/^…/, '').replace(/^(, |、)/, '').replace(/: $/, ''))
				.filter(s => s.length > 0);
			const entity = cells[cells.length - 2].textContent;
			const keys = cells.slice(0, cells.length - 2).map(c => c.textContent);
			return `${entity}|${keys.join('|')}|${attrs.sort().join(',')}`;
		}) : [];
		views.push({ table, index: name, rows });
	}
	// The diagram: drawn, with a box for every entity or a count of them.
	const svg = document.querySelector('svg.diagram');
	const box = svg ? svg.getBoundingClientRect() : null;
	const diagram = svg ? { width: box.width, height: box.height,
		entities: svg.querySelectorAll('g.entity').length,
		tables: svg.querySelectorAll('g.table').length } : null;
	// The items each access pattern returns: marked, all in one colour.
	const hits = [...document.querySelectorAll('.items tr.hit')];
	const hitColours = new Set(hits.map(tr => getComputedStyle(tr.cells[1]).backgroundColor)).size;
	return { views, diagram, hits: hits.length, hitColours };
}

function sameRows(a, b) {
	const x = [...a].sort(), y = [...b].sort();
	return x.length === y.length && x.every((v, i) => v === y[i]);
}

function checkViews(what, want, got, mdRows) {
	check(got.views.length === want.size,
		`${what}: ${got.views.length} item views on the page, ${want.size} tables and indexes`);
	check(mdRows.length === got.views.length,
		`${what}: ${mdRows.length} item views in the Markdown, ${got.views.length} on the page`);
	got.views.forEach((v, i) => {
		const w = want.get(`${v.table}/${v.index}`);
		check(w !== undefined, `${what}: an item view of '${v.table}/${v.index}', which the design lacks`);
		if (!w)
			return;
		check(sameRows(v.rows, w.rows),
			`${what}: the view of ${v.table}/${v.index} holds\n    ${v.rows.join('\n    ')}\n  ` +
			`the design says\n    ${w.rows.join('\n    ')}`);
		check(mdRows[i] === w.rows.length,
			`${what}: the Markdown view of ${v.table}/${v.index} has ${mdRows[i]} rows, ` +
			`expected ${w.rows.length}`);
	});
}

// What the page shows, read in the browser.
function readPage() {
	const entities = [];
	for (const h of document.querySelectorAll('h3.entity')) {
		let el = h.nextElementSibling;
		while (el && !/^H[1-6]$/.test(el.tagName) && !el.matches('.table-wrap.attributes'))
			el = el.nextElementSibling;
		const table = el && el.matches('.table-wrap.attributes') ? el.querySelector('table') : null;
		entities.push({
			name: h.querySelector('code')?.textContent ?? '',
			id: h.id,
			headers: table ? table.querySelectorAll('thead th').length : 0,
			rows: table ? [...table.querySelectorAll('tbody tr')].map(r => r.cells.length) : null,
		});
	}
	const badLinks = [...document.querySelectorAll('a[href^="#"]')]
		.map(a => decodeURIComponent(a.getAttribute('href').slice(1)))
		.filter(id => !document.getElementById(id));
	return { entities, badLinks, scripts: document.scripts.length };
}

// Cells a reader cannot see whole: past the right edge of their table's
// box (scrolled out of view), or holding more than they show.
function clipped() {
	const out = [];
	for (const wrap of document.querySelectorAll('.table-wrap')) {
		const box = wrap.getBoundingClientRect();
		for (const c of wrap.querySelectorAll('td, th')) {
			const r = c.getBoundingClientRect();
			if (r.width === 0)
				continue;
			if (r.right > box.right + 1 || c.scrollWidth > c.clientWidth + 1) {
				out.push(`${wrap.className.replace('table-wrap ', '')}: '${c.textContent.slice(0, 40)}'`);
				break;
			}
		}
	}
	return out;
}

// Card rows of a phone's index map that say only "—" (no value), which
// should not take a line of their own.
function dashRows() {
	return [...document.querySelectorAll('.table-wrap.index-map td')]
		.filter(td => td.textContent.trim() === '—' && td.getBoundingClientRect().height > 0)
		.length;
}

// The diagram's entity boxes that do not lead to their entity's section.
function diagramLinks() {
	const bad = [];
	const boxes = [...document.querySelectorAll('svg.diagram g.entity')];
	for (const g of boxes) {
		const name = g.querySelector('title')?.textContent ?? '';
		const a = g.closest('a');
		const id = a ? decodeURIComponent((a.getAttribute('href') || '').replace(/^#/, '')) : '';
		const target = id ? document.getElementById(id) : null;
		const shows = target && target.matches('h3.entity') &&
			target.querySelector('code')?.textContent === name;
		if (!shows)
			bad.push(name);
	}
	return { boxes: boxes.length, bad };
}

function overflow() {
	const page = document.documentElement.scrollWidth - document.documentElement.clientWidth;
	const cut = [...document.querySelectorAll('.table-wrap')]
		.filter(w => w.scrollWidth > w.clientWidth + 1 || w.scrollHeight > w.clientHeight + 1)
		.length;
	// Tables whose columns run past their box (a reader must scroll to them).
	const wide = [...document.querySelectorAll('.table-wrap')]
		.filter(w => w.scrollWidth > w.clientWidth + 1)
		.map(w => `${w.className.replace('table-wrap ', '')} (${w.scrollWidth - w.clientWidth}px)`);
	return { page, cut, wide };
}

async function checkPage(context, design, lang, dir) {
	const base = design.replace(/^.*\//, '').replace(/\.ddb\.yaml$/, '');
	const what = `${base} (${lang})`;
	const path = design.includes('/') ? join(srcdir, design) : join(srcdir, 'samples', design);
	const md = doc(path, 'md', lang);
	const yaml = YAML.parse(readFileSync(path, 'utf8'));
	const views = expectedViews(yaml);
	const file = join(dir, `${base}.${lang}.html`);
	writeFileSync(file, doc(path, 'html', lang));

	const page = await context.newPage();
	const problems = [];
	page.on('pageerror', e => problems.push(`script error: ${e.message}`));
	page.on('console', m => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
	page.on('request', r => { if (!r.url().startsWith('file:')) problems.push(`request: ${r.url()}`); });
	await page.setViewportSize({ width: 1280, height: 900 });
	await page.goto(pathToFileURL(file).href);

	const want = entitiesOfMarkdown(md, lang);
	const got = await page.evaluate(readPage);
	check(want.length > 0, `${what}: the Markdown has entity tables`);
	check(got.entities.length === want.length,
		`${what}: ${got.entities.length} entity headings on the page, ${want.length} in the Markdown`);
	want.forEach((w, i) => {
		const g = got.entities[i] || {};
		check(g.name === w.name, `${what}: entity ${i + 1} is '${g.name}', expected '${w.name}'`);
		check(g.id && g.id.length > 0, `${what}: entity '${w.name}' has an anchor`);
		check(g.headers === 6, `${what}: entity '${w.name}' table has ${g.headers} columns`);
		check(g.rows && g.rows.length === w.rows,
			`${what}: entity '${w.name}' table has ${g.rows ? g.rows.length : 'no'} rows, expected ${w.rows}`);
		check(g.rows && g.rows.every(n => n === 6), `${what}: entity '${w.name}' rows all have 6 cells`);
	});
	check(got.badLinks.length === 0, `${what}: links to missing anchors: ${got.badLinks.join(', ')}`);
	check(got.scripts === 0, `${what}: the page holds ${got.scripts} scripts`);
	const shown = await page.evaluate(readViews);
	checkViews(what, views, shown, viewRowsOfMarkdown(md));
	const d = shown.diagram;
	check(d && d.width > 0 && d.height > 0, `${what}: the diagram is drawn as SVG`);
	check(d && d.tables === Object.keys(yaml.tables || {}).length,
		`${what}: the diagram has ${d?.tables} tables`);
	check(md.includes('```mermaid\nflowchart LR\n'), `${what}: the Markdown has the Mermaid diagram`);
	const links = await page.evaluate(diagramLinks);
	check(links.boxes > 0, `${what}: the diagram shows entities`);
	check(links.bad.length === 0,
		`${what}: diagram boxes that do not link to their section: ${links.bad.join(', ')}`);
	const mdHits = md.split('\n').filter(l => l.startsWith('| ▶ |')).length;
	check(shown.hits === mdHits, `${what}: ${shown.hits} returned items marked, ${mdHits} in the Markdown`);
	check(shown.hitColours <= 1, `${what}: returned items in ${shown.hitColours} colours`);

	for (const [width, height] of [[1920, 1080], [420, 900], [390, 844]]) {
		await page.setViewportSize({ width, height });
		const o = await page.evaluate(overflow);
		check(o.page <= 0, `${what}: at ${width}px the page scrolls sideways by ${o.page}px`);
		check(width === 390 || o.wide.length === 0,
			`${what}: at ${width}px columns are off screen in ${o.wide.join(', ')}`);
		if (width !== 390) {
			const cut = await page.evaluate(clipped);
			check(cut.length === 0, `${what}: at ${width}px clipped cells in ${cut.join('; ')}`);
		}
		if (width === 420) {
			const dashes = await page.evaluate(dashRows);
			check(dashes === 0, `${what}: at 420px the index map's cards show ${dashes} '—' rows`);
		}
		if (width === 390)
			continue;
		await page.screenshot({ path: join(shots || dir, `${base}.${lang}.${width}.png`),
			fullPage: width === 1920 });
		// The first GSI's view (else the table's), as a reader scrolls to it.
		const view = page.locator('.table-wrap.items').nth(1);
		if (await view.count())
			await view.screenshot({ path: join(shots || dir, `${base}.${lang}.${width}.view.png`) });
	}

	await page.emulateMedia({ media: 'print' });
	await page.setViewportSize({ width: 700, height: 1000 });
	const printed = await page.evaluate(overflow);
	check(printed.cut === 0, `${what}: printed, ${printed.cut} tables are cut off`);
	const hidden = await page.evaluate(() => [...document.querySelectorAll('details pre')]
		.filter(p => p.getBoundingClientRect().height === 0).length);
	check(hidden === 0, `${what}: printed, ${hidden} folded example items are hidden`);

	check(problems.length === 0, `${what}: ${problems.join('; ')}`);
	await page.close();
}

const profile = mkdtempSync(join(tmpdir(), 'ddbc-chromium-'));
const pages = mkdtempSync(join(tmpdir(), 'ddbc-pages-'));
let context;
try {
	context = await chromium.launchPersistentContext(profile, {
		executablePath: browserPath,
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
	const designs = readdirSync(join(srcdir, 'samples')).filter(f => f.endsWith('.ddb.yaml')).sort();
	check(designs.length > 0, 'there are samples');
	designs.push('tests/designs/tracker.ddb.yaml');
	for (const design of designs)
		for (const lang of ['en', 'ja'])
			await checkPage(context, design, lang, pages);
} catch (e) {
	failures++;
	console.log(`FAIL: ${e.stack || e}`);
} finally {
	if (context)
		await context.close();
	rmSync(profile, { recursive: true, force: true });
	rmSync(pages, { recursive: true, force: true });
}
console.log(`${checks - failures}/${checks} checks passed`);
process.exit(failures ? 1 : 0);

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
//   - printed, no table is cut off.
// Usage: node doc-pages.mjs DDBC SRCDIR   (env CHROMIUM: the browser;
// DDBC_SCREENSHOT_DIR: also save a screenshot of each page there)
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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

function overflow() {
	const page = document.documentElement.scrollWidth - document.documentElement.clientWidth;
	const cut = [...document.querySelectorAll('.table-wrap')]
		.filter(w => w.scrollWidth > w.clientWidth + 1 || w.scrollHeight > w.clientHeight + 1)
		.length;
	return { page, cut };
}

async function checkPage(context, design, lang, dir) {
	const base = design.replace(/\.ddb\.yaml$/, '');
	const what = `${base} (${lang})`;
	const md = doc(join(srcdir, 'samples', design), 'md', lang);
	const file = join(dir, `${base}.${lang}.html`);
	writeFileSync(file, doc(join(srcdir, 'samples', design), 'html', lang));

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

	if (shots)
		await page.screenshot({ path: join(shots, `${base}.${lang}.png`), fullPage: true });

	await page.setViewportSize({ width: 390, height: 844 });
	const narrow = await page.evaluate(overflow);
	check(narrow.page <= 0, `${what}: on a phone the page scrolls sideways by ${narrow.page}px`);

	await page.emulateMedia({ media: 'print' });
	await page.setViewportSize({ width: 700, height: 1000 });
	const printed = await page.evaluate(overflow);
	check(printed.cut === 0, `${what}: printed, ${printed.cut} tables are cut off`);

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

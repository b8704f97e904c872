// doc-site.mjs - how long each page of a documentation site takes to open
//
// Usage: node bench/doc-site.mjs DIR   (env CHROMIUM: the browser)
// Opens every *.html of DIR (written by `ddbc doc --format html -o DIR/`)
// in headless Chromium, one after another, and prints per page the time
// until the load event and the page's size; then the slowest and the
// median. Exits 1 when a page takes 5 s or more, or raises an error.
import { chromium } from 'playwright-core';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = resolve(process.argv[2] || '.');
const LIMIT_MS = 5000;
const pages = readdirSync(dir).filter(f => f.endsWith('.html')).sort();
const profile = mkdtempSync(join(tmpdir(), 'ddbc-bench-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	headless: true,
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
const times = [];
let bad = 0;
try {
	for (const file of pages) {
		const page = await context.newPage();
		const errors = [];
		page.on('pageerror', e => errors.push(e.message));
		page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
		const start = Date.now();
		await page.goto(pathToFileURL(join(dir, file)).href, { waitUntil: 'load', timeout: 60000 });
		// Laid out and painted: the browser has measured the whole page.
		const height = await page.evaluate(() => document.documentElement.scrollHeight);
		const ms = Date.now() - start;
		times.push(ms);
		const kb = Math.round(statSync(join(dir, file)).size / 1024);
		console.log(`${file}\t${ms} ms\t${kb} KiB\t${height} px${errors.length ? '\t' + errors.join('; ') : ''}`);
		if (ms >= LIMIT_MS || errors.length)
			bad++;
		await page.close();
	}
} finally {
	await context.close();
	rmSync(profile, { recursive: true, force: true });
}
times.sort((a, b) => a - b);
console.log(`${pages.length} pages: slowest ${times[times.length - 1]} ms, median ` +
	`${times[Math.floor(times.length / 2)]} ms`);
process.exit(bad ? 1 : 0);

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Cell, Table } from './harness';

/**
 * `npm run bench` writes last-run.html beside last-run.json: every table of the run as a chart and
 * as a table, readable offline (Chart.js's UMD build is inlined from node_modules).
 *
 * Charts are drawn from the printed tables themselves, so a new benchmark is charted without code
 * here: the throughput columns (header with "/s") and the latency columns (p50/p95/p99/max/ms/s)
 * each get a chart, bars per row; when the first column is a size (10,000 / 100k / 1M members, a
 * depth), the chart is a line over a logarithmic axis, which shows the growth. Ratio columns (×) get
 * their own chart with the goal lines 1× (and 0.5×/0.9×/1.5× when named in the notes).
 */

type RunFile = {
  startedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGb: number; platform: string; loadAverage: number[]; node: string; postgres: Record<string, string> };
  settings: Record<string, unknown>;
  results: Record<string, { description: string; seconds: number; loadAverage1m?: { before: number; after: number }; tables: Table[]; notes?: string[] }>;
};

type ChartSpec = { kind: 'bar' | 'line'; title: string; labels: string[]; xNumeric: boolean; series: Array<{ label: string; values: Array<number | null> }>; yTitle: string; logX: boolean };

/** "1,234" → 1234, "12.5 ms" → 12.5, "0.93×" → 0.93, "1M" → 1e6, "100k" → 1e5; otherwise null. */
export function parseNumber(cell: Cell): number | null {
  if (cell === null) return null;
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  const m = /^\s*([\d,]*\.?\d+)\s*(k|K|M)?\s*(ms|s|×|%|\/s)?\s*$/.exec(cell);
  if (!m) return null;
  const n = Number(m[1]!.replace(/,/g, ''));
  return m[2] === 'M' ? n * 1e6 : m[2] ? n * 1e3 : n;
}

const isRatio = (header: string, cells: Cell[]) => /÷|ratio/i.test(header) || cells.every((c) => typeof c === 'string' && /×$/.test(c.trim()));
const isThroughput = (header: string) => /\/s\b|per s|rows\/s|req\/s|events\/s/i.test(header);
const isLatency = (header: string) => /^(p\d+|max|mean|ms|seconds|s)$|\bms\b|p50|p95|p99|latency|lag|seconds/i.test(header);

/** Column headers repeat (p50, p99 after each store): name them after the throughput column they follow. */
function qualifiedHeaders(columns: string[]): string[] {
  let owner = '';
  return columns.map((c) => {
    if (isThroughput(c)) {
      owner = c.replace(/\/s$/, '');
      return c;
    }
    return /^(p\d+|max|mean)$/i.test(c) && owner ? `${owner} ${c}` : c;
  });
}

export function chartsForTable(table: Table): ChartSpec[] {
  if (table.rows.length === 0) return [];
  const headers = qualifiedHeaders(table.columns);
  const labels = table.rows.map((r) => String(r[0] ?? ''));
  const xValues = labels.map((l) => parseNumber(l));
  const xNumeric = !/writers|connections/i.test(table.columns[0] ?? '') && table.rows.length >= 2 && xValues.every((v) => v !== null && v > 0);
  const logX = xNumeric && Math.max(...(xValues as number[])) / Math.min(...(xValues as number[])) >= 50;
  const numericColumns = headers
    .map((h, i) => ({ h, i, cells: table.rows.map((r) => r[i] ?? null) }))
    .filter(({ i, cells }) => i > 0 && cells.some((c) => parseNumber(c) !== null));
  const groups: Array<{ title: string; yTitle: string; columns: typeof numericColumns }> = [
    { title: 'throughput', yTitle: 'per second', columns: numericColumns.filter((c) => isThroughput(c.h) && !isRatio(c.h, c.cells)) },
    { title: 'latency / time', yTitle: 'ms (or s, as in the table)', columns: numericColumns.filter((c) => !isThroughput(c.h) && isLatency(c.h) && !isRatio(c.h, c.cells)) },
    { title: 'ratios (ours ÷ reference)', yTitle: '×', columns: numericColumns.filter((c) => isRatio(c.h, c.cells)) },
  ];
  const used = new Set(groups.flatMap((g) => g.columns.map((c) => c.i)));
  const rest = numericColumns.filter((c) => !used.has(c.i) && !/^(writers|commands|failed|count|events|rows)$/i.test(c.h));
  if (rest.length > 0) groups.push({ title: 'values', yTitle: '', columns: rest });
  return groups
    .filter((g) => g.columns.length > 0)
    .map((g) => ({
      kind: xNumeric ? 'line' : 'bar',
      title: g.title,
      labels,
      xNumeric,
      logX,
      yTitle: g.yTitle,
      series: g.columns.map((c) => ({ label: c.h, values: c.cells.map(parseNumber) })),
    }));
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

function tableHtml(table: Table): string {
  const head = table.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = table.rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c === null ? '' : String(c))}</td>`).join('')}</tr>`).join('\n');
  const notes = (table.notes ?? []).map((n) => `<li>${escapeHtml(n)}</li>`).join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>${notes ? `<ul class="notes">${notes}</ul>` : ''}`;
}

export function renderHtmlReport(run: RunFile): string {
  // The package's exports do not name the UMD file: find it beside the package's entry.
  const entry = createRequire(import.meta.url).resolve('chart.js');
  const chartJs = readFileSync(path.join(entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`)), 'dist', 'chart.umd.js'), 'utf8');
  const charts: ChartSpec[] = [];
  const sections = Object.entries(run.results).map(([name, result]) => {
    const blocks = result.tables.map((table) => {
      const specs = chartsForTable(table);
      const canvases = specs.map((spec) => {
        charts.push(spec);
        return `<div class="chart"><canvas id="chart-${charts.length - 1}"></canvas></div>`;
      });
      return `<h3>${escapeHtml(table.title)}</h3><div class="charts">${canvases.join('')}</div>${tableHtml(table)}`;
    });
    const load = result.loadAverage1m ? `; 1-min load average ${result.loadAverage1m.before} → ${result.loadAverage1m.after} on ${run.machine.cpus} CPUs` : '';
    const notes = (result.notes ?? []).map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('');
    return `<section><h2>${escapeHtml(name)}: ${escapeHtml(result.description)}</h2><p class="meta">${result.seconds.toFixed(0)} s${load}</p>${blocks.join('')}${notes}</section>`;
  });
  const m = run.machine;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Benchmarks ${escapeHtml(run.startedAt)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1200px; padding: 0 16px; color: #1d2a1f; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 40px; border-bottom: 1px solid #cdd8cf; } h3 { font-size: 15px; }
.meta, .note { color: #4a5a4d; } .charts { display: flex; flex-wrap: wrap; gap: 16px; }
.chart { flex: 1 1 520px; min-width: 300px; height: 320px; position: relative; }
table { border-collapse: collapse; margin: 12px 0; font-variant-numeric: tabular-nums; overflow-x: auto; display: block; }
th, td { border: 1px solid #d7e0d9; padding: 3px 8px; text-align: right; white-space: nowrap; } th:first-child, td:first-child { text-align: left; }
ul.notes { color: #4a5a4d; font-size: 12.5px; }
</style></head><body>
<h1>npm run bench — ${escapeHtml(run.startedAt)}</h1>
<p class="meta">${m.cpus} CPUs (${escapeHtml(m.cpuModel)}), ${m.memoryGb} GB, ${escapeHtml(m.platform)}; node ${escapeHtml(m.node)}; PostgreSQL ${escapeHtml(m.postgres.server_version ?? '')}
(shared_buffers=${escapeHtml(m.postgres.shared_buffers ?? '')}, fsync=${escapeHtml(m.postgres.fsync ?? '')}); load average at the start ${m.loadAverage.join(' / ')}.
Client and server share the CPUs, and other work may have been running: read the ratios (ours ÷ a reference measured in the same run), not the absolute figures.</p>
${sections.join('\n')}
<script>${chartJs}</script>
<script>
const specs = ${JSON.stringify(charts).replace(/</g, '\\u003c')};
const palette = ['#2f7d4a', '#c0692b', '#3b6fb6', '#8a4fa3', '#b23a48', '#5c8a8a', '#a08a2e', '#555'];
specs.forEach((spec, i) => {
  const numericX = spec.kind === 'line' && spec.xNumeric;
  new Chart(document.getElementById('chart-' + i), {
    type: spec.kind,
    data: {
      labels: spec.labels,
      datasets: spec.series.map((s, j) => ({
        label: s.label,
        data: numericX ? s.values.map((v, k) => ({ x: Number(String(spec.labels[k]).replace(/,/g, '').replace(/k$/i, '000').replace(/M$/, '000000')), y: v })) : s.values,
        backgroundColor: palette[j % palette.length],
        borderColor: palette[j % palette.length],
      })),
    },
    options: {
      maintainAspectRatio: false,
      plugins: { title: { display: true, text: spec.title } },
      scales: {
        x: numericX ? { type: spec.logX ? 'logarithmic' : 'linear', title: { display: true, text: 'size' } } : {},
        y: { beginAtZero: true, title: { display: Boolean(spec.yTitle), text: spec.yTitle } },
      },
    },
  });
});
</script>
</body></html>
`;
}

export function writeHtmlReport(jsonFile: string, htmlFile: string): void {
  writeFileSync(htmlFile, renderHtmlReport(JSON.parse(readFileSync(jsonFile, 'utf8')) as RunFile));
}

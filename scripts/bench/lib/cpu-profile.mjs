// Reads a V8 CPU profile (`node --cpu-prof`) and says where one window of it went: the functions
// with the most self time, the packages that time was spent in, and our own functions with the
// most time including what they called. The window is in microseconds of the monotonic clock
// (`process.hrtime.bigint() / 1000n` in any process of the machine: V8 stamps samples with it).
import { readFileSync } from 'node:fs';

/** Microseconds on the clock V8's profiles use. */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/** Where a frame's code lives: a package, Node itself, our code (its folder), or V8's own buckets. */
function ownerOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node (core)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [first, second] = url.slice(modules + '/node_modules/'.length).split('/');
    return first?.startsWith('@') ? `${first}/${second}` : (first ?? url);
  }
  const ours = /\/(gateway|libs\/[^/]+|services\/[^/]+|scripts)\//.exec(url);
  return ours ? `ours: ${ours[1]}` : url;
}

const shortUrl = (url) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*?\/(gateway|libs|services)\//, '$1/');

/**
 * @param {string} file a .cpuprofile
 * @param {{ from: number, to: number }} window in monotonic microseconds
 */
export function summarizeProfile(file, { from, to }, top = 15) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const key = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    return `${functionName || '(anonymous)'} ${url ? `${shortUrl(url)}:${lineNumber + 1}` : ''}`.trim();
  };

  const self = new Map();
  const owners = new Map();
  const inclusive = new Map();
  let total = 0;
  let idle = 0;
  let time = profile.startTime;
  for (let index = 0; index < profile.samples.length; index += 1) {
    time += profile.timeDeltas[index];
    if (time < from || time > to) continue;
    // A sample stands for the time until the next one.
    const weight = profile.timeDeltas[index + 1] ?? 0;
    const node = byId.get(profile.samples[index]);
    if (node.callFrame.functionName === '(idle)') {
      idle += weight;
      continue;
    }
    total += weight;
    self.set(key(node), (self.get(key(node)) ?? 0) + weight);
    const owner = ownerOf(node.callFrame.url, node.callFrame.functionName);
    owners.set(owner, (owners.get(owner) ?? 0) + weight);
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parentOf.get(id)) {
      const frame = byId.get(id);
      if (!ownerOf(frame.callFrame.url, frame.callFrame.functionName).startsWith('ours')) continue;
      const frameKey = key(frame);
      if (seen.has(frameKey)) continue;
      seen.add(frameKey);
      inclusive.set(frameKey, (inclusive.get(frameKey) ?? 0) + weight);
    }
  }
  const ranked = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => ({ name, ms: micros / 1000, share: total ? micros / total : 0 }));
  return {
    busyMs: total / 1000,
    idleMs: idle / 1000,
    self: ranked(self),
    owners: ranked(owners),
    ours: ranked(inclusive),
  };
}

/** The summary as Markdown tables. */
export function profileTables(summary) {
  const table = (title, rows) => [
    `| ${title} | ms | share of busy |`,
    '| --- | --- | --- |',
    ...rows.map(
      (row) => `| \`${row.name.replaceAll('|', '\\|')}\` | ${row.ms.toFixed(0)} | ${(row.share * 100).toFixed(1)}% |`,
    ),
  ];
  return [
    `Busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms in the window.`,
    '',
    ...table('by package (self time)', summary.owners),
    '',
    ...table('function (self time)', summary.self),
    '',
    ...table('our function (including callees)', summary.ours),
  ].join('\n');
}

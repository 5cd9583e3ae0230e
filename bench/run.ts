/**
 * `npm run bench` (full, about 4 minutes on 2 cores) and `npm run bench -- --smoke` (CI, seconds):
 * prints one table per section on stdout and writes the figures as JSON to bench/results/.
 * Options: --smoke, --only=wire,peers,latency,throughput,resume,persistence,browser,scaling,model,markdown,proxy,launcher,scroll, --out=FILE.
 * Targets are printed beside the figures (PASS/MISS), never asserted: the exit code is 0 unless
 * a section could not run.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserSection } from './browser-section.ts';
import { measureBrowser, pickMedianPass, type BrowserResult } from './browser.ts';
import { FULL, SMOKE, type BenchConfig } from './config.ts';
import { computePeers, measureRevCost, peersSection } from './peers-section.ts';
import { measurePersistenceSection, persistenceSection } from './persistence-section.ts';
import { renderSection, type Section } from './report.ts';
import { measureResume, resumeSection } from './resume-section.ts';
import { markdownSection, measureMarkdown } from './markdown-section.ts';
import { measureModelLatency, modelSection } from './model-section.ts';
import { measureScaling, scalingSection } from './scaling-section.ts';
import { measureProxy, proxySection } from './proxy-section.ts';
import { launcherSection, measureLauncher } from './launcher-section.ts';
import { measureScroll, scrollSection } from './scroll-section.ts';
import { canPin } from './server-handle.ts';
import { latencySection, runStreams, throughputSection, wireSection, type StreamRuns } from './stream-sections.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SECTION_KEYS = ['wire', 'peers', 'latency', 'throughput', 'resume', 'persistence', 'browser', 'scaling', 'model', 'markdown', 'proxy', 'launcher', 'scroll'] as const;
type SectionKey = (typeof SECTION_KEYS)[number];
const FALLBACK_TITLES: Record<SectionKey, string> = {
  wire: '1. Wire cost',
  peers: '2. The same stream as peers encode it',
  latency: '3. Latency',
  throughput: '4. Throughput',
  resume: '5. Resume',
  persistence: '6. Persistence and start',
  browser: '7. Browser',
  scaling: '8. Compression as clients add up',
  model: '9. Model agent latency',
  markdown: '10. Markdown while a reply streams',
  proxy: '11. agentbar proxy on loopback',
  launcher: '12. What the launcher adds to a page load',
  scroll: '13. Scrolling up a long chat',
};

interface Args {
  config: BenchConfig;
  only: Set<SectionKey>;
  out: string;
}

function parseArgs(argv: string[]): Args {
  let smoke = false;
  let only = new Set<SectionKey>(SECTION_KEYS);
  let out: string | null = null;
  for (const arg of argv) {
    if (arg === '--smoke') smoke = true;
    else if (arg.startsWith('--only=')) {
      const keys = arg.slice('--only='.length).split(',').filter(Boolean);
      const unknown = keys.filter((k) => !(SECTION_KEYS as readonly string[]).includes(k));
      if (unknown.length) throw new Error(`Unknown section(s): ${unknown.join(', ')}. Known: ${SECTION_KEYS.join(', ')}`);
      only = new Set(keys as SectionKey[]);
    } else if (arg.startsWith('--out=')) out = path.resolve(arg.slice('--out='.length));
    else if (arg === '--help' || arg === '-h') {
      console.log('Usage: npm run bench [-- --smoke] [--only=wire,peers,latency,throughput,resume,persistence,browser,scaling,model,markdown,proxy,launcher,scroll] [--out=FILE]');
      process.exit(0);
    } else throw new Error(`Unknown option: ${arg} (try --help)`);
  }
  const file = smoke ? 'smoke.json' : only.size === SECTION_KEYS.length ? 'latest.json' : 'partial.json';
  return { config: smoke ? SMOKE : FULL, only, out: out ?? path.join(HERE, 'results', file) };
}

/** Linux PSI: the share of the last 60 s some task waited for a CPU (%), null where unsupported. */
function readCpuPressure(): number | null {
  try {
    const match = /some avg10=[\d.]+ avg60=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: HERE, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { config, only } = args;
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const progress = (what: string) => process.stderr.write(`[bench ${elapsed()}] ${what}\n`);
  const meta = {
    date: new Date().toISOString(),
    smoke: config.smoke,
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? null,
    loadAverageAtStart: os.loadavg(),
    loadAverageAtEnd: [] as number[],
    /** /proc/pressure/cpu "some avg60": % of time tasks waited for a CPU (other processes included). */
    cpuPressureAtStart: readCpuPressure(),
    cpuPressureAtEnd: null as number | null,
    /** Whether throughput (burst) servers can run pinned to core 0; other servers never are. */
    serverPinned: canPin(),
    commit: gitCommit(),
    durationS: 0,
    config,
  };

  const sections = new Map<SectionKey, Section>();
  const failures: string[] = [];
  const attempt = async (keys: SectionKey[], run: () => Promise<void>) => {
    if (!keys.some((k) => only.has(k))) return;
    try {
      await run();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failures.push(`${keys.join('/')}: ${message}`);
      progress(`FAILED ${keys.join('/')}: ${error instanceof Error ? error.stack : message}`);
      for (const key of keys) {
        if (!sections.has(key)) sections.set(key, { key, title: FALLBACK_TITLES[key], columns: [], rows: [], notes: [], data: null, skipped: `failed: ${message}` });
      }
    }
  };

  let streams: StreamRuns | null = null;
  const revCost = await measureRevCost(config);
  await attempt(['wire', 'latency', 'throughput'], async () => {
    streams = await runStreams(config, progress);
    sections.set('wire', wireSection(streams, config, revCost));
    sections.set('latency', latencySection(streams, config));
    sections.set('throughput', throughputSection(streams, config));
  });
  await attempt(['resume'], async () => {
    progress('resume after a dropped second');
    sections.set('resume', resumeSection(await measureResume(config), config));
  });
  await attempt(['peers'], async () => {
    const peers = await computePeers(config, progress);
    const measured = (streams as StreamRuns | null)?.runs.find((r) => r.mode === 'paced' && r.deflate && r.clients === 1)?.wireBytesPerDelta ?? null;
    sections.set('peers', peersSection(peers, config, measured, revCost));
  });
  await attempt(['persistence'], async () => {
    progress('persistence and start');
    sections.set('persistence', persistenceSection(await measurePersistenceSection(config)));
  });
  await attempt(['browser'], async () => {
    const measure = (historyMessages: number, pass = '') => {
      progress(`browser, ${historyMessages}-message history${pass}`);
      return measureBrowser({
        historyMessages,
        deltas: config.browser.deltas,
        planDeltas: config.browser.planDeltas,
        wheelSteps: config.browser.wheelSteps,
        textLength: config.textLength,
        deltaSize: config.deltaSize,
        paceHz: config.paceHz,
        gateMs: config.gateMs,
      });
    };
    const passes: BrowserResult[] = [];
    for (let i = 0; i < config.browser.passes; i++) {
      const pass = await measure(config.browser.historyMessages, config.browser.passes > 1 ? `, pass ${i + 1} of ${config.browser.passes}` : '');
      passes.push(pass);
      if ('skipped' in pass) break;
    }
    const main = pickMedianPass(passes);
    const compare = 'skipped' in main || !config.browser.compareHistoryMessages ? null : await measure(config.browser.compareHistoryMessages);
    sections.set('browser', browserSection(main, compare, config.paceHz));
  });
  await attempt(['scaling'], async () => {
    sections.set('scaling', scalingSection(await measureScaling(config, progress), config));
  });
  await attempt(['model'], async () => {
    sections.set('model', modelSection(await measureModelLatency(config, progress)));
  });
  await attempt(['markdown'], async () => {
    sections.set('markdown', markdownSection(measureMarkdown(config, progress)));
  });
  await attempt(['proxy'], async () => {
    sections.set('proxy', proxySection(await measureProxy(config, progress)));
  });
  await attempt(['launcher'], async () => {
    sections.set('launcher', launcherSection(await measureLauncher(config, progress)));
  });
  await attempt(['scroll'], async () => {
    sections.set('scroll', scrollSection(await measureScroll(config, progress)));
  });

  meta.loadAverageAtEnd = os.loadavg();
  meta.cpuPressureAtEnd = readCpuPressure();
  meta.durationS = Math.round((performance.now() - started) / 100) / 10;
  const ordered = SECTION_KEYS.filter((k) => only.has(k) && sections.has(k)).map((k) => sections.get(k)!);
  const header = [
    `# agentbar bench${config.smoke ? ' (--smoke: small sizes, figures not comparable with targets)' : ''}`,
    `${meta.date} · node ${meta.node} · ${meta.cpus} × ${meta.cpuModel ?? 'cpu'} · load avg ${meta.loadAverageAtStart.map((l) => l.toFixed(2)).join(' ')} → ${meta.loadAverageAtEnd.map((l) => l.toFixed(2)).join(' ')}${meta.cpuPressureAtStart !== null ? ` · CPU pressure (PSI some avg60) ${meta.cpuPressureAtStart}% → ${meta.cpuPressureAtEnd}%` : ''} · server ${meta.serverPinned ? 'pinned to core 0 for throughput' : 'never pinned (no taskset or < 2 cores)'} · ${meta.durationS} s`,
  ];
  if (meta.loadAverageAtStart[0]! > meta.cpus * 0.5 || (meta.cpuPressureAtEnd ?? 0) > 10) {
    header.push(
      `Warning: the machine was busy (load ${meta.loadAverageAtStart[0]!.toFixed(2)} on ${meta.cpus} cores at start${meta.cpuPressureAtEnd !== null ? `, tasks waited for a CPU ${meta.cpuPressureAtEnd}% of the last minute` : ''}): latency and throughput figures are pessimistic.`,
    );
  }
  console.log([...header, '', ...ordered.map(renderSection).flatMap((s) => [s, ''])].join('\n'));

  await mkdir(path.dirname(args.out), { recursive: true });
  const json = {
    meta,
    sections: Object.fromEntries(ordered.map((s) => [s.key, { title: s.title, skipped: s.skipped ?? null, columns: s.columns, rows: s.rows, notes: s.notes, data: s.data }])),
    failures,
  };
  await writeFile(args.out, JSON.stringify(json, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2) + '\n');
  progress(`wrote ${path.relative(process.cwd(), args.out)}`);
  if (failures.length) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});

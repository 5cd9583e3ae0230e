/**
 * The demo agents `npm start` runs: deterministic, no network, no API key. Together they show
 * every part type the toolbar renders. Type `help` to the guide to see the list.
 */
import os from 'node:os';
import * as v from 'valibot';
import { describeComponent } from '../../shared/describe-pick.ts';
import { ComponentFrameSchema } from '../../shared/schemas.ts';
import { ToolDeniedError, defineAgent, type AgentDefinition, type RunContext } from './agent.ts';

const HELP = `I'm the **demo guide**. Try one of these:

| Type | You get |
|---|---|
| \`markdown\` | streamed markdown with a code block |
| \`think\` | reasoning (collapsed), then an answer |
| \`docs\` | a \`backend\` tool call with its result |
| \`system\` | a \`cli\` tool that runs in the server process |
| \`selection\` | a \`toolbar\` tool that reads the elements you picked, after you approve it |
| \`file\` | a file you can download |
| \`long\` | a long reply, to try **Stop** |
| \`fail\` | an agent bug, shown as a failed message |
| \`skill review\` | sets my active skill (it survives restarts) |

My **Mode** menu, beside my name: in **Trusting** mode \`selection\` reads the page without asking (**Always allow** on its approval moves the chat there).

Switch the agent to **demo/historian** to get a summary of this chat: every agent sees the whole history.`;

const MARKDOWN = `Here is a small **TypeScript** helper that debounces a function:

\`\`\`ts
export function debounce<T extends unknown[]>(fn: (...args: T) => void, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: T) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
\`\`\`

- It keeps only the *last* call within \`ms\`.
- Use it for search boxes and resize handlers.[^lodash]

> Tip: pass \`{ leading: true }\` variants only when the first call must be instant.

[^lodash]: Lodash's \`debounce\` also has \`leading\` and \`maxWait\` options.`;

/** The long reply's steps, each with its line break: a gate holds the reply between two of them. */
const LONG_LINES = Array.from(
  { length: 40 },
  (_, i) => `${i + 1}. Step ${i + 1} of a long plan: check the layout, then the spacing, then the colours of section ${i + 1}.${i < 39 ? '\n' : ''}`,
);

/** Splits text into the 2–6 character pieces a model would stream, the same way every time. */
export function splitIntoDeltas(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  let n = 0;
  while (i < text.length) {
    const size = 2 + ((n * 7) % 5);
    out.push(text.slice(i, i + size));
    i += size;
    n++;
  }
  return out;
}

async function* paced(ctx: RunContext, text: string, paceMs: number): AsyncIterable<string> {
  for (const delta of splitIntoDeltas(text)) {
    if (paceMs > 0) await ctx.sleep(paceMs);
    yield delta;
  }
}

/**
 * Where a test holds the demo's long reply and its reasoning: they stream their first line, then
 * go on from line to line only while the gate is open. A test can so act while a reply is surely
 * still going, however slow the machine, and let it end as soon as it is done with it. A gate
 * starts closed.
 *
 * @example
 * const gate = new DemoGate();
 * await startServer({ agents: createDemoAgents({ paceMs: 0, gate }) });
 * // … send "long", see its first step, click around, then let it finish:
 * gate.open();
 */
export class DemoGate {
  private readonly waiting = new Set<() => void>();
  private isOpen = false;

  /** Lets the held replies go on, and the ones to come pass. */
  open(): void {
    this.isOpen = true;
    for (const go of [...this.waiting]) go();
  }

  /** Holds the replies again at their next line. */
  close(): void {
    this.isOpen = false;
  }

  /** Resolves while the gate is open, and at once when the run is stopped (the reply then ends). */
  wait(signal: AbortSignal): Promise<void> {
    if (this.isOpen || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const go = () => {
        this.waiting.delete(go);
        signal.removeEventListener('abort', go);
        resolve();
      };
      this.waiting.add(go);
      signal.addEventListener('abort', go, { once: true });
    });
  }
}

/** The pieces of text in turn, paced; with a gate, each piece after the first waits for it. */
async function* gated(ctx: RunContext, pieces: string[], paceMs: number, gate: DemoGate | undefined): AsyncIterable<string> {
  for (const [i, piece] of pieces.entries()) {
    if (gate && i > 0) await gate.wait(ctx.signal);
    yield* paced(ctx, piece, paceMs);
  }
}

function csvDataUrl(): string {
  const csv = 'order,customer,total,status\n10421,Ada Lovelace,320.00,paid\n10420,Grace Hopper,89.50,pending\n10419,Alan Turing,1140.00,paid\n';
  return `data:text/csv;base64,${Buffer.from(csv).toString('base64')}`;
}

function summarizeElements(output: unknown): string {
  const list = Array.isArray(output) ? output : Array.isArray((output as { elements?: unknown })?.elements) ? (output as { elements: unknown[] }).elements : null;
  if (!list) return 'The toolbar answered, but not with a list of elements.';
  if (list.length === 0) return 'No elements are selected. Press **Pick elements**, click something on the page, then ask again.';
  const lines = list.slice(0, 10).map((e) => {
    const el = e as { tagName?: string; textContent?: string; selector?: string; components?: unknown };
    const text = (el.textContent ?? '').trim().slice(0, 60);
    // The component that wrote it, where the page's dev server marks elements (agentbar/vite).
    const writer = Array.isArray(el.components) ? v.safeParse(ComponentFrameSchema, el.components[0]) : null;
    const where = writer?.success ? `, written by **${describeComponent(writer.output)}**` : '';
    return `- \`${el.selector ?? el.tagName ?? '?'}\`${where}${text ? ` — “${text}”` : ''}`;
  });
  return `You selected ${list.length} element${list.length === 1 ? '' : 's'}:\n\n${lines.join('\n')}`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export interface DemoAgentOptions {
  /** Milliseconds between streamed pieces; 0 streams at once (tests). Default 18. */
  paceMs?: number;
  /** For tests: `long` and `think` go on from line to line only while it is open. */
  gate?: DemoGate;
}

/**
 * The demo agents: `demo/guide` (every part type), `demo/historian` (reads the shared history) and
 * `demo/planner` (declared, not implemented).
 *
 * @example await startServer({ agents: createDemoAgents({ paceMs: 0 }) });
 */
export function createDemoAgents(options: DemoAgentOptions = {}): AgentDefinition[] {
  const paceMs = options.paceMs ?? 18;
  const gate = options.gate;
  const stream = (ctx: RunContext, text: string) => ctx.reply.text(paced(ctx, text, paceMs));

  const guide = defineAgent({
    id: 'demo/guide',
    description: 'Shows everything agentbar renders: markdown, reasoning, tools, files. Type "help".',
    workflows: ['tour'],
    // What the help table lists, offered as the user types `/` (the guide reads the word either way).
    commands: [
      { name: 'markdown', description: 'Streamed markdown with a code block' },
      { name: 'think', description: 'Reasoning (collapsed), then an answer' },
      { name: 'docs', description: 'A backend tool call with its result' },
      { name: 'system', description: 'A cli tool that runs in the server process' },
      { name: 'selection', description: 'A toolbar tool that reads the elements you picked, after you approve it' },
      { name: 'file', description: 'A file you can download' },
      { name: 'long', description: 'A long reply, to try Stop' },
      { name: 'fail', description: 'An agent bug, shown as a failed message' },
      { name: 'skill', description: 'Sets my active skill (it survives restarts)', hint: 'name' },
    ],
    // A coding agent's "ask before edits" and "accept edits", in the guide's terms.
    modes: [
      { id: 'ask', name: 'Ask first', description: 'Asks before it reads the page' },
      { id: 'trust', name: 'Trusting', description: 'Reads the elements you picked without asking' },
    ],
    tools: [
      {
        name: 'system_info',
        description: 'Reads the platform, Node version and uptime of the agent process',
        runtime: 'cli',
        type: 'deterministic',
        execute: () => ({ platform: os.platform(), arch: os.arch(), node: process.version, cpus: os.cpus().length, uptimeSeconds: Math.round(process.uptime()) }),
      },
      { name: 'search_docs', description: 'Searches the (canned) product docs', runtime: 'backend', type: 'deterministic' },
      { name: 'get_selected_elements', description: 'Reads the elements picked in the page', runtime: 'toolbar', type: 'deterministic' },
      { name: 'choose_reply', description: 'Decides what to say', type: 'decision' },
    ],
    async run(ctx) {
      const text = ctx.text.trim().toLowerCase();
      if (/\bfail|crash|error\b/.test(text)) {
        await stream(ctx, 'Let me try something risky… ');
        throw new Error('Demo failure: the agent threw on purpose, and the server kept serving.');
      }
      if (/\bskill\b/.test(text)) {
        const skill = text.replace(/.*\bskill\b\s*/, '').trim() || null;
        ctx.state.setActiveSkill(skill);
        await stream(ctx, skill ? `Active skill set to **${skill}**. It is kept across restarts.` : 'Active skill cleared.');
        return;
      }
      if (/\bthink|reason/.test(text)) {
        await ctx.reply.reasoning(gated(ctx, ['The user wants to see reasoning.', ' I will think briefly, then answer in one line.'], paceMs, gate));
        await stream(ctx, 'Done thinking: **reasoning** parts are shown collapsed above this answer.');
        return;
      }
      if (/\bdocs?|backend|search\b/.test(text)) {
        await stream(ctx, 'Searching the docs… ');
        ctx.reply.backendToolResult({
          name: 'search_docs',
          input: { query: 'streaming diffs' },
          output: { hits: [{ title: 'Protocol §3: State and diffs', url: 'PROTOCOL.md#3-state-and-diffs' }] },
        });
        await stream(ctx, 'Found it: see **Protocol §3** on state and diffs. That call ran on a `backend` service, so its result sits inside this message.');
        return;
      }
      if (/\bsystem|cli\b/.test(text)) {
        const result = await ctx.callTool({ name: 'system_info', runtime: 'cli' });
        const info = result.output as { platform?: string; node?: string; cpus?: number };
        await stream(ctx, result.isError ? `The tool failed: ${String(result.output)}` : `The agent runs on **${info.platform}** with Node **${info.node}** and ${info.cpus} CPUs. That was a \`cli\` tool, run in the server process.`);
        return;
      }
      if (/\bselect|selection|page|element/.test(text)) {
        const trusting = ctx.mode === 'trust';
        await stream(ctx, trusting ? 'Reading the elements you picked (Trusting mode: without asking).' : 'I would like to read the elements you picked in the page.');
        // "Always allow" is honoured as an agent should: the chat moves to Trusting mode, and the
        // next read goes without asking (the user can move it back in the Mode menu).
        const call = ctx.startToolCall({ name: 'get_selected_elements', runtime: 'toolbar', requiresApproval: !trusting, alwaysOffered: !trusting });
        try {
          const answer = trusting ? null : await call.requestApproval();
          if (answer?.always) ctx.setMode('trust');
          const result = await call.result;
          const trusted = answer?.always ? 'You chose Always allow: this chat is in **Trusting** mode now, so next time I read them without asking. ' : '';
          await stream(ctx, trusted + (result.isError ? `The toolbar could not read them: ${String(result.output)}` : summarizeElements(result.output)));
        } catch (error) {
          if (!(error instanceof ToolDeniedError)) throw error;
          await stream(ctx, `Understood, I will not read the page${error.reason ? ` (${error.reason})` : ''}.`);
        }
        return;
      }
      if (/\bfile|csv|download\b/.test(text)) {
        await stream(ctx, 'Here is the orders table as a CSV file:');
        ctx.reply.file({ data: csvDataUrl(), mimeType: 'text/csv', filename: 'orders.csv' });
        return;
      }
      if (/\blong|stop\b/.test(text)) {
        await ctx.reply.text(gated(ctx, [`A long answer; press **Stop** whenever you like.\n\n${LONG_LINES[0]}`, ...LONG_LINES.slice(1)], paceMs, gate));
        return;
      }
      if (/\bmarkdown|code|example\b/.test(text)) {
        await stream(ctx, MARKDOWN);
        return;
      }
      await stream(ctx, HELP);
    },
  });

  const historian = defineAgent({
    id: 'demo/historian',
    description: 'Summarizes the chat so far: every agent sees the whole shared history.',
    tools: [{ name: 'summarize', type: 'decision' }],
    async run(ctx) {
      const counts = { user: 0, assistant: 0, tool: 0 };
      const agents = new Set<string>();
      for (const m of ctx.messages) {
        counts[m.role]++;
        if (m.role === 'assistant') agents.add(m.agent);
      }
      const first = ctx.messages.find((m) => m.role === 'user' && m.content.some((p) => p.type === 'text'));
      const firstText = first && first.role === 'user' ? (first.content.find((p) => p.type === 'text') as { text: string } | undefined)?.text : undefined;
      const summary = [
        `This chat has **${plural(ctx.messages.length, 'message')}**: ${counts.user} from you, ${plural(counts.assistant, 'reply', 'replies')} from agents, ${plural(counts.tool, 'tool result')}.`,
        agents.size ? `Agents that answered: ${[...agents].map((a) => `\`${a}\``).join(', ')}.` : 'No agent has answered yet.',
        firstText ? `It started with: “${firstText.slice(0, 120)}”.` : '',
      ]
        .filter(Boolean)
        .join('\n\n');
      await stream(ctx, summary);
    },
  });

  const planner = defineAgent({
    id: 'demo/planner',
    description: 'Plans multi-step changes (declared, not implemented yet).',
    implemented: false,
    workflows: ['plan-feature'],
  });

  return [guide, historian, planner];
}

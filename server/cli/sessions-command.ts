/**
 * `agentbar sessions [--delete NAME] [--json]`: the chats, or deleting one (its agent may refuse).
 */
import { formatCost, formatLocalDateTime, sumChatCosts } from '../../shared/format.ts';
import type { State } from '../../shared/schemas.ts';
import { attachOrEmbed } from './attach.ts';
import { CliError, findSession, reasonOf } from './chat-turn.ts';
import { COMMON_HELP, parseCommandArgs } from './command-args.ts';

export const SESSIONS_USAGE = `Usage: agentbar sessions [--delete <name>] [--json] [--data-dir <dir>]

Lists the chats ("sessions"), latest first: name, the agents that answered in it, message count,
what it has cost where an agent said (a model agent given --price, an ACP agent that reports it),
last update (local time), id.
  --delete <name>       Delete the chat with this title or id (its agent may refuse: the reason is printed)
  --json                Print the list as JSON (updatedAt in ISO 8601, UTC)
${COMMON_HELP}`;

interface SessionRow {
  id: string;
  name: string;
  agents: string[];
  messages: number;
  /** What the chat has cost, summed over its agents' reports, one entry per currency; absent when none said. */
  cost?: { amount: number; currency: string }[];
  updatedAt: string;
}

function listSessions(s: State): SessionRow[] {
  return Object.values(s.chats)
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .map((c) => {
      // Chats from before `agents` existed: the agent last addressed.
      const answered = c.agents ?? (c.agent ? [c.agent] : []);
      const cost = sumChatCosts(c);
      return { id: c.id, name: c.title, agents: answered, messages: c.messageCount, ...(cost.length ? { cost } : {}), updatedAt: new Date(c.updatedAt).toISOString() };
    });
}

export async function runSessions(argv: string[]): Promise<number> {
  const { values, common } = parseCommandArgs(argv, { delete: { type: 'string' }, json: { type: 'boolean' } });
  if (common.help) {
    console.log(SESSIONS_USAGE);
    return 0;
  }
  const session = await attachOrEmbed({ dataDir: common.dataDir, flags: common, name: 'agentbar sessions' });
  try {
    const { client } = session;
    if (typeof values.delete === 'string') {
      const chat = findSession(client.getSnapshot().state!, values.delete);
      if (!chat) throw new CliError(`No session named "${values.delete}"`);
      try {
        await client.request('chat.delete', { chatId: chat.id });
      } catch (error) {
        throw new CliError(`Could not delete "${chat.title}": ${reasonOf(error)}`);
      }
      console.log(`Deleted "${chat.title}" (${chat.id})`);
      return 0;
    }
    const rows = listSessions(client.getSnapshot().state!);
    if (values.json) console.log(JSON.stringify(rows, null, 2));
    else if (!rows.length) console.log('No sessions yet. Start one: agentbar chat -a <agent> -m "hello"');
    else {
      for (const r of rows) {
        const cost = r.cost ? `  ·  ${r.cost.map(formatCost).join(' + ')}` : '';
        console.log(`${r.name}  ·  ${r.agents.join(', ') || 'no agent yet'}  ·  ${r.messages} ${r.messages === 1 ? 'message' : 'messages'}${cost}  ·  ${formatLocalDateTime(Date.parse(r.updatedAt))}  ·  ${r.id}`);
      }
    }
    return 0;
  } finally {
    await session.close();
  }
}

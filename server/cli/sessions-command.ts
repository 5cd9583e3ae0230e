/**
 * `agentbar sessions [--delete NAME | --export NAME] [--json]`: the chats, deleting one (its agent
 * may refuse), or one written out as Markdown.
 */
import { formatChatMarkdown } from '../../shared/chat-markdown.ts';
import { formatCost, formatLocalDateTime, sumChatCosts } from '../../shared/format.ts';
import type { ChatInfo, Message, State } from '../../shared/schemas.ts';
import type { SyncClient } from '../../shared/sync-client.ts';
import { shownOn } from './terminal/terminal-text.ts';
import { attachOrEmbed } from './attach.ts';
import { CliError, findSession, reasonOf } from './chat-turn.ts';
import { COMMON_HELP, describeOptions } from './options.ts';
import { parseCommandArgs, UsageError } from './parse-args.ts';

export const SESSIONS_USAGE = `Usage: agentbar sessions [--delete <name> | --export <name>] [--json] [--data-dir <dir>]

Lists the chats ("sessions"), latest first: name, the agents that answered in it, message count,
what it has cost where an agent said (a model agent given --price, an ACP agent that reports it),
last update (local time), id.
${describeOptions(['delete', 'export', 'json'], 22, 'sessions')}
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

async function readMessages(client: SyncClient, chat: ChatInfo): Promise<Message[]> {
  try {
    return (await client.request('chat.read', { chatId: chat.id })).messages;
  } catch (error) {
    throw new CliError(`Could not read "${chat.title}": ${reasonOf(error)}`);
  }
}

export async function runSessions(argv: string[]): Promise<number> {
  const { values, common } = parseCommandArgs('sessions', argv);
  if (common.help) {
    console.log(SESSIONS_USAGE);
    return 0;
  }
  if (values.delete !== undefined && values.export !== undefined) throw new UsageError('--delete and --export do not go together: one chat at a time');
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
    if (typeof values.export === 'string') {
      const chat = findSession(client.getSnapshot().state!, values.export);
      if (!chat) throw new CliError(`No session named "${values.export}"`);
      const messages = await readMessages(client, chat);
      if (values.json) console.log(JSON.stringify(messages, null, 2));
      else {
        const markdown = formatChatMarkdown({ title: chat.title, messages, head: chat.head });
        // On a terminal, an agent's escape sequences must not move the cursor; in a file they are the text.
        process.stdout.write(shownOn(process.stdout)(markdown));
      }
      return 0;
    }
    const rows = listSessions(client.getSnapshot().state!);
    if (values.json) console.log(JSON.stringify(rows, null, 2));
    else if (!rows.length) console.log('No sessions yet. Start one: agentbar chat -a <agent> -m "hello"');
    else {
      // Names come from users and agents: on a terminal, their escape sequences must not act.
      const show = shownOn(process.stdout);
      for (const r of rows) {
        const cost = r.cost ? `  ·  ${r.cost.map(formatCost).join(' + ')}` : '';
        console.log(show(`${r.name}  ·  ${r.agents.join(', ') || 'no agent yet'}  ·  ${r.messages} ${r.messages === 1 ? 'message' : 'messages'}${cost}  ·  ${formatLocalDateTime(Date.parse(r.updatedAt))}  ·  ${r.id}`));
      }
    }
    return 0;
  } finally {
    await session.close();
  }
}

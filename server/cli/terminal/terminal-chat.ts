/**
 * The terminal chat: another client of the same protocol, built on the shared sync client.
 * `handleLine` takes what the user typed; output goes through `write`.
 */
import path from 'node:path';
import type { SyncClient } from '../../../shared/sync-client.ts';
import { findCurrentMode } from '../../../shared/agent-mode.ts';
import { defaultAgent } from '../../../shared/default-agent.ts';
import { describeUnknownAgent } from '../unknown-agent.ts';
import { formatChatMarkdown } from '../../../shared/chat-markdown.ts';
import { describeUsage } from '../../../shared/format.ts';
import type { AgentCommand, FilePart, ToolCallPart } from '../../../shared/schemas.ts';
import type { ApprovalReply } from '../chat-turn.ts';
import { findClosest } from '../closest-word.ts';
import { describeError } from '../../sync/describe-error.ts';
import { readApproveCommand } from './approve-command.ts';
import { checkAttachments, describeAttachment, readAttachment, type Attachment } from './read-attachment.ts';
import { describeReplyFile, resolveTypedPath, safeFileName, saveNewFile, saveReplyFile } from './save-reply-file.ts';
import { runSettingCommand, setSetting } from './setting-command.ts';
import { createTranscriptPrinter } from './transcript-printer.ts';

export const TERMINAL_HELP = `Commands:
  /chats               list chats
  /new [title]         start a chat
  /switch <n>          switch to chat n of /chats
  /rename <title>      rename the active chat
  /delete <n>          delete chat n of /chats
  /agents              list agents;  /agent <id> to address one
  /mode [id]           the addressed agent's modes (plan, accept edits…); with an id, switch
                       this chat to it
  /set [setting [value]]  the addressed agent's settings (model, reasoning level…) in this
                       chat; with a setting, its values; with a value, change it
  /usage               how full each agent's context is in this chat, and what it cost
  /approve [n|always]  approve the tool call waiting for you: alone, once; n, the agent's answer
                       numbered n; always, don't ask again for such calls, where it offers that
  /reject [reason]     reject it
  /stop                stop the reply (typed while it streams, at once; the chat goes on)
  /save [dir]          save the files of the latest reply that has any (to --save-files's folder
                       or the current one by default)
  /export [dir]        write this chat as Markdown to <title>.md there (the same folder as /save
                       by default; never over a file: <title>-1.md next)
  /attach [file]       send a file with your next message (repeatable); alone, list them
  /detach              drop the files attached for the next message
  /quit                leave (the agent keeps your chats)
Anything else is sent as a message, and so are the agent's own commands (listed below when it has
announced any); //text sends /text as it is.`;

/** Every slash command `run` takes, for the one meant by a typo. */
const SLASH_COMMANDS = ['/help', '/quit', '/exit', '/chats', '/new', '/switch', '/rename', '/delete', '/agents', '/agent', '/mode', '/set', '/usage', '/approve', '/reject', '/stop', '/save', '/export', '/attach', '/detach'];

/**
 * The agent's commands for /help, one a line, like the list above them.
 *
 * @example describeAgentCommands('acp/claude-code', [{ name: 'review', description: 'Review the diff', hint: 'focus' }])
 * // 'Commands of acp/claude-code, sent to it as messages:\n  /review <focus>      Review the diff'
 */
function describeAgentCommands(agent: string, commands: readonly AgentCommand[]): string {
  const lines = commands.map((c) => {
    const usage = `/${c.name}${c.hint ? ` <${c.hint}>` : ''}`;
    return `  ${usage.padEnd(20)} ${c.description}`.trimEnd();
  });
  return [`Commands of ${agent}, sent to it as messages:`, ...lines].join('\n');
}

function pendingApproval(client: SyncClient): ToolCallPart | undefined {
  const messages = client.getSnapshot().state?.active?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    for (const p of m.content) if (p.type === 'tool-call' && p.state === 'awaiting-approval') return p;
  }
  return undefined;
}

/** The files of the latest reply in the active chat that carries any. */
function latestReplyFiles(client: SyncClient): FilePart[] {
  const messages = client.getSnapshot().state?.active?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    const files = m.content.filter((p): p is FilePart => p.type === 'file');
    if (files.length) return files;
  }
  return [];
}

/**
 * @example
 * const chat = createTerminalChat({ client, write: (s) => process.stdout.write(s) });
 * readline.on('line', (line) => chat.handleLine(line));
 */
export function createTerminalChat(options: {
  client: SyncClient;
  write: (text: string) => void;
  onQuit?: () => void;
  connectWaitMs?: number;
  agent?: string;
  /** False: print only what commands answer, not the live transcript (its owner prints replies). */
  transcript?: boolean;
  /** Where `/save` and `/export` write without a folder of their own (default: the current folder). */
  saveDir?: string;
}) {
  const printer = createTranscriptPrinter(options.write);
  const { client } = options;
  const write = (text: string) => printer.note(text);
  let agent: string | undefined = options.agent;
  let lastStatus = '';
  let counter = 0;
  /** What `/attach` read, for the next message. */
  let pending: { name: string; part: Attachment }[] = [];

  const unsubscribe = client.subscribe(() => {
    const view = client.getSnapshot();
    if (view.status !== lastStatus) {
      lastStatus = view.status;
      if (view.status !== 'connected') write(`(${view.status}${view.error ? `: ${view.error.message}` : ''})`);
    }
    if (options.transcript !== false) printer.update(view.state);
  });
  if (options.transcript !== false) printer.update(client.getSnapshot().state);

  const chatList = () => {
    const state = client.getSnapshot().state;
    return state ? Object.values(state.chats).sort((a, b) => b.updatedAt - a.updatedAt) : [];
  };

  /** The agent a message goes to now, and the commands it announced. */
  const addressedCommands = () => {
    const state = client.getSnapshot().state;
    const addressed = agent ?? defaultAgent(state, state?.activeChatId ?? null);
    return { addressed, commands: state?.agents.find((a) => a.id === addressed)?.commands ?? [] };
  };

  /**
   * What a line sends to the agent, or null when it is a command of this chat (or an unknown one).
   * The agent's own commands (an ACP agent's `/review`) are messages; `//text` sends `/text`.
   */
  function messageText(line: string): string | null {
    const trimmed = line.trimStart();
    if (trimmed.startsWith('//')) return trimmed.slice(1);
    if (!trimmed.startsWith('/')) return line;
    const command = trimmed.split(/\s+/)[0]!;
    if (SLASH_COMMANDS.includes(command)) return null;
    return addressedCommands().commands.some((c) => `/${c.name}` === command) ? line : null;
  }

  async function run(line: string): Promise<void> {
    const [command, ...rest] = line.trim().split(/\s+/);
    const arg = rest.join(' ');
    // A path keeps its spacing as typed (two spaces in a name stay two).
    const typedPath = line.trim().slice(command?.length ?? 0).trim();
    const state = client.getSnapshot().state;
    const chatId = state?.activeChatId ?? null;
    const { addressed, commands: agentCommands } = addressedCommands();
    const text = messageText(line);
    switch (text === null ? command : undefined) {
      case '/help':
        write(`${TERMINAL_HELP}\n${agentCommands.length ? `${describeAgentCommands(addressed!, agentCommands)}\n` : ''}`);
        return;
      case '/quit':
      case '/exit':
        options.onQuit?.();
        return;
      case '/chats': {
        const list = chatList();
        write(list.length ? list.map((c, i) => `${i + 1}. ${c.title}${c.id === chatId ? '  (active)' : ''}  — ${c.messageCount} messages`).join('\n') + '\n' : 'No chats yet: /new\n');
        return;
      }
      case '/new':
        await client.request('chat.create', arg ? { title: arg } : {});
        return;
      case '/switch':
      case '/delete': {
        const chat = chatList()[Number(arg) - 1];
        if (!chat) {
          write(`No chat ${arg || '?'}: see /chats\n`);
          return;
        }
        await client.request(command === '/switch' ? 'chat.switch' : 'chat.delete', { chatId: chat.id });
        if (command === '/delete') write(`Deleted “${chat.title}”.\n`);
        return;
      }
      case '/rename':
        if (!chatId || !arg) {
          write(chatId ? 'Usage: /rename <title>\n' : 'No active chat.\n');
          return;
        }
        await client.request('chat.rename', { chatId, title: arg });
        return;
      case '/agents':
        write(
          (state?.agents ?? []).map((a) => `${a.id}${a.implemented ? '' : ' (not implemented)'}${a.id === agent ? '  (addressed)' : ''} — ${a.description}`).join('\n') + '\n',
        );
        return;
      case '/agent': {
        const known = arg ? state?.agents.find((a) => a.id === arg) : undefined;
        if (arg && !known) {
          write(`${describeUnknownAgent(arg, state?.agents ?? [])}\n`);
          return;
        }
        if (known && !known.implemented) {
          write(`Agent '${arg}' not implemented\n`);
          return;
        }
        agent = arg || undefined;
        const chats = agent ? null : defaultAgent(state, chatId);
        write(agent ? `Messages now go to ${agent}.\n` : `Messages go to the chat’s agent${chats ? ` (${chats})` : ''}.\n`);
        return;
      }
      case '/set':
        await runSettingCommand(arg, { client, state, chatId, agent: addressed, write });
        return;
      case '/usage': {
        if (!chatId) {
          write('No active chat.\n');
          return;
        }
        const usage = Object.entries(state?.chats[chatId]?.usage ?? {});
        // No "yet": an agent may also take its report away (another model answers now).
        if (usage.length === 0) write('No agent reports how full its context is in this chat.\n');
        else write(usage.map(([id, u]) => `${id}: ${describeUsage(u)}\n`).join(''));
        return;
      }
      case '/mode': {
        const info = addressed ? state?.agents.find((a) => a.id === addressed) : undefined;
        const modes = info?.modes ?? [];
        // An agent that gives its mode as a setting (ACP's config options) has it there instead.
        const modeSetting = modes.length === 0 ? info?.settings?.find((s) => s.category === 'mode') : undefined;
        if (modeSetting && addressed) {
          if (arg) await setSetting({ client, state, chatId, agent: addressed, write }, addressed, modeSetting, arg);
          else await runSettingCommand(modeSetting.id, { client, state, chatId, agent: addressed, write });
          return;
        }
        if (!addressed || !state || modes.length === 0) {
          write(`${addressed ?? 'The agent'} has no modes.\n`);
          return;
        }
        if (!arg) {
          const current = findCurrentMode(state, chatId, addressed);
          const lines = modes.map((m) => `  ${m.id === current ? '*' : ' '} ${m.id.padEnd(18)} ${m.name}${m.description ? ` — ${m.description}` : ''}`);
          write(`Modes of ${addressed} (* this chat's):\n${lines.join('\n')}\n/mode <id> switches this chat to another.\n`);
          return;
        }
        // An id as listed, or the name as shown in the toolbar; anything else the server refuses with the list.
        const wanted = modes.find((m) => m.id === arg) ?? modes.find((m) => m.name.toLowerCase() === arg.toLowerCase());
        const target = chatId ?? (await client.request('chat.create', { agent: addressed })).chatId;
        await client.request('mode.set', { chatId: target, agent: addressed, mode: wanted?.id ?? arg });
        write(`${addressed} works in ${wanted?.name ?? arg} in this chat now.\n`);
        return;
      }
      case '/approve':
      case '/reject': {
        const call = chatId ? pendingApproval(client) : undefined;
        if (!call || !chatId) {
          write('No tool call is waiting for approval.\n');
          return;
        }
        const answer: ApprovalReply | string = command === '/approve' ? readApproveCommand(arg, call) : { approved: false, ...(arg ? { reason: arg } : {}) };
        if (typeof answer === 'string') {
          write(`${answer}\n`);
          return;
        }
        const { approved, reason, always, optionId } = answer;
        await client.request('tool.approve', { chatId, toolCallId: call.toolCallId, approved, ...(reason ? { reason } : {}), ...(always ? { always } : {}), ...(optionId ? { optionId } : {}) });
        return;
      }
      case '/save': {
        const files = latestReplyFiles(client);
        if (!files.length) {
          write('No reply in this chat carries a file.\n');
          return;
        }
        const dir = arg ? resolveTypedPath(typedPath) : path.resolve(options.saveDir ?? '.');
        for (const part of files) {
          try {
            write(`Saved ${describeReplyFile(part)} to ${await saveReplyFile(dir, part)}\n`);
          } catch (error) {
            write(`! Could not save ${describeReplyFile(part)}: ${describeError(error)}\n`);
          }
        }
        return;
      }
      case '/export': {
        const state = client.getSnapshot().state;
        const chat = state?.activeChatId ? state.chats[state.activeChatId] : undefined;
        if (!chat || state?.active?.chatId !== chat.id) {
          write('No chat is open: /chats lists them, /switch <n> opens one.\n');
          return;
        }
        const markdown = formatChatMarkdown({ title: chat.title, messages: state.active.messages, head: chat.head });
        // A title's slashes would be taken for folders (safeFileName keeps only the last part).
        const name = safeFileName(`${chat.title.replace(/[\\/]/g, '-')}.md`, 'text/markdown');
        const dir = arg ? resolveTypedPath(typedPath) : path.resolve(options.saveDir ?? '.');
        try {
          write(`Wrote "${chat.title}" as Markdown to ${await saveNewFile(dir, name, Buffer.from(markdown))}\n`);
        } catch (error) {
          write(`! Could not write "${chat.title}": ${describeError(error)}\n`);
        }
        return;
      }
      case '/attach': {
        if (!arg) {
          write(pending.length ? `For your next message: ${pending.map((a) => describeAttachment(a.part, a.name)).join(', ')}. /detach drops them.\n` : 'Nothing attached: /attach <file> adds one.\n');
          return;
        }
        const file = resolveTypedPath(typedPath);
        const part = await readAttachment(file);
        checkAttachments([...pending.map((a) => a.part), part]);
        pending.push({ name: path.basename(file), part });
        write(`Attached ${describeAttachment(part, path.basename(file))}: it goes with your next message.\n`);
        return;
      }
      case '/detach':
        write(pending.length ? `Dropped ${pending.length === 1 ? 'the attached file' : `${pending.length} attached files`}.\n` : 'Nothing is attached.\n');
        pending = [];
        return;
      case '/stop': {
        // Stop the run wherever it is: it may work in a chat that is not the active one.
        const target = state?.run?.chatId ?? chatId;
        if (!target) return;
        const { stopped } = await client.request('run.stop', { chatId: target });
        if (!stopped) write('Nothing is running.\n');
        return;
      }
    }
    if (text === null) {
      const meant = findClosest(command!, [...SLASH_COMMANDS, ...agentCommands.map((c) => `/${c.name}`)]);
      write(`Unknown command ${command}${meant ? ` (did you mean ${meant}?)` : ''}: /help lists them; /${command} sends it to the agent as it is\n`);
      return;
    }
    if (!text.trim()) return;
    let target = chatId;
    if (!target) target = (await client.request('chat.create', {})).chatId;
    const files = takeAttachments();
    try {
      await client.request('message.send', {
        chatId: target,
        content: [{ type: 'text', text }, ...files.parts],
        metadata: { source: 'cli', selectedElements: [] },
        clientMessageId: `cli-${Date.now()}-${++counter}`,
        ...(agent ? { agent } : {}),
      });
    } catch (error) {
      files.restore();
      throw error;
    }
  }

  /** Lines typed (or piped) before the handshake wait for it, up to `connectWaitMs`. */
  function waitConnected(): Promise<void> {
    const status = client.getSnapshot().status;
    if (status === 'connected' || status === 'closed') return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stop();
        resolve();
      };
      const timer = setTimeout(done, options.connectWaitMs ?? 10_000);
      const stop = client.subscribe(() => {
        if (client.getSnapshot().status === 'connected') done();
      });
    });
  }

  // Lines run one after another, in the order typed.
  let queue: Promise<void> = Promise.resolve();

  /** The files for the message being sent, and a way to put them back if it is refused. */
  function takeAttachments(): { parts: Attachment[]; restore: () => void } {
    const took = pending;
    pending = [];
    return { parts: took.map((a) => a.part), restore: () => (pending = [...took, ...pending]) };
  }

  return {
    /** Runs one typed line; errors (an agent's rejection, busy, offline) are printed, never thrown. */
    handleLine(line: string): Promise<void> {
      queue = queue.then(() => runLine(line));
      return queue;
    },
    dispose: unsubscribe,
    messageText,
    /** Hands the files `/attach` read to a message the owner sends; `restore()` if it was refused. */
    takeAttachments,
    /** The agent chosen with `/agent` (or given at start); undefined: the chat's own. */
    get agent(): string | undefined {
      return agent;
    },
    /** The agent a message goes to now: the one chosen, else the chat's (null: none known). */
    get addressed(): string | null {
      return addressedCommands().addressed;
    },
  };

  async function runLine(line: string): Promise<void> {
    try {
      if (!['/quit', '/exit', '/help'].includes(line.trim())) await waitConnected();
      await run(line);
    } catch (error) {
      const e = error as { code?: string; message?: string };
      write(`! ${e.message ?? String(error)}${e.code ? ` (${e.code})` : ''}\n`);
    }
  }
}

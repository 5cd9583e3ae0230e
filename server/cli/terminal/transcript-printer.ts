/**
 * Turns successive states into terminal output: the active chat's messages, printed once, with
 * streamed text printed as it grows (only the new suffix, never the whole message again).
 */
import type { AssistantPart, Message, State, ToolCallPart } from '../../../shared/schemas.ts';
import { describeApproval } from '../../../shared/format.ts';
import { truncateText } from '../../../shared/truncate.ts';
import { describeNotice } from './terminal-text.ts';
import { describeApproveUsage } from './approve-command.ts';
import { describeToolCall } from './describe-tool-call.ts';

interface Printed {
  /** Characters of each text/reasoning part already printed. */
  lengths: number[];
  /** Tool calls whose current state was printed, by id. */
  calls: Map<string, string>;
  results: Set<string>;
  /** Notices printed. */
  notices: number;
  done: boolean;
}

const STATUS_TEXT: Record<string, string> = {
  stopped: '[stopped]',
  failed: '[failed]',
  interrupted: '[interrupted: the server stopped before this reply ended]',
};

function describeCall(call: ToolCallPart): string {
  const head = `[tool ${describeToolCall(call)} (${call.runtime})]`;
  if (call.state === 'awaiting-approval') return `${head} needs your approval: ${describeApproveUsage(call)}`;
  return `${head} ${call.state}`;
}

function describeOutput(output: unknown, isError: boolean | undefined): string {
  const text = typeof output === 'string' ? output : JSON.stringify(output);
  return `${isError ? '[tool error] ' : '[tool result] '}${truncateText(text ?? 'null', 300)}`;
}

/**
 * @example
 * const printer = createTranscriptPrinter((s) => process.stdout.write(s));
 * client.subscribe(() => printer.update(client.getSnapshot().state));
 */
export function createTranscriptPrinter(write: (text: string) => void) {
  let chatId: string | null = null;
  let messages: readonly Message[] | null = null;
  const printed = new Map<string, Printed>();
  /** The message objects printed last time, by id. */
  const seen = new Map<string, Message>();
  /** The message whose text the cursor ends in, so a continuation needs no header. */
  let open: { id: string; part: number } | null = null;

  const endLine = () => {
    if (open) write('\n');
    open = null;
  };

  function printPart(m: Message, p: Printed, part: AssistantPart | Message['content'][number], i: number): void {
    if (part.type === 'text' || part.type === 'reasoning') {
      const seen = p.lengths[i] ?? 0;
      if (part.text.length <= seen) return;
      if (!open || open.id !== m.id || open.part !== i) {
        endLine();
        if (part.type === 'reasoning') write('  (thinking) ');
      }
      write(part.text.slice(seen));
      p.lengths[i] = part.text.length;
      open = { id: m.id, part: i };
      return;
    }
    if (part.type === 'tool-call') {
      if (p.calls.get(part.toolCallId) === part.state) return;
      endLine();
      write(`  ${describeCall(part)}\n`);
      p.calls.set(part.toolCallId, part.state);
      return;
    }
    if (part.type === 'tool-result') {
      if (p.results.has(part.toolCallId)) return;
      endLine();
      write(`  ${describeOutput(part.output, part.isError)}\n`);
      p.results.add(part.toolCallId);
      return;
    }
    if (part.type === 'tool-approval-response') {
      if (p.results.has(part.toolCallId)) return;
      endLine();
      write(`  [you ${describeApproval(part)}]\n`);
      p.results.add(part.toolCallId);
      return;
    }
    if (part.type === 'file' || part.type === 'image') {
      const key = `${i}`;
      if (p.results.has(key)) return;
      endLine();
      write(part.type === 'file' ? `  [file ${part.filename ?? part.mimeType}]\n` : '  [image]\n');
      p.results.add(key);
    }
  }

  function printMessage(m: Message): void {
    let p = printed.get(m.id);
    if (!p) {
      p = { lengths: [], calls: new Map(), results: new Set(), notices: 0, done: false };
      printed.set(m.id, p);
      endLine();
      if (m.role === 'user' && m.content.every((c) => c.type === 'tool-approval-response')) {
        // approvals print as one line below
      } else if (m.role !== 'tool') {
        write(m.role === 'user' ? '\nyou: ' : `\n${m.agent}: `);
        open = { id: m.id, part: -1 };
      }
    }
    if (m.role === 'assistant' && m.notices && m.notices.length > p.notices) {
      endLine();
      for (const n of m.notices.slice(p.notices)) write(`  ${describeNotice(n)}\n`);
      p.notices = m.notices.length;
    }
    m.content.forEach((part, i) => {
      if (open?.part === -1 && open.id === m.id && (part.type === 'text' || part.type === 'reasoning')) open = { id: m.id, part: i };
      printPart(m, p, part, i);
    });
    if (m.role === 'assistant' && !p.done && m.status !== 'streaming') {
      p.done = true;
      const status = STATUS_TEXT[m.status];
      if (status) {
        endLine();
        write(`  ${status}${m.error ? ` ${m.error}` : ''}\n`);
      } else if (open?.id === m.id) endLine();
    }
  }

  return {
    /** Prints a line of its own (a notice, an error), after any text being streamed. */
    note(text: string): void {
      endLine();
      write(text.endsWith('\n') ? text : text + '\n');
    },
    /** Prints whatever changed since the last state. */
    update(state: State | null): void {
      const active = state?.active ?? null;
      if (!active) {
        if (chatId !== null) {
          endLine();
          write('\n(no active chat: /new to start one)\n');
        }
        chatId = null;
        messages = null;
        return;
      }
      if (active.chatId !== chatId) {
        endLine();
        chatId = active.chatId;
        printed.clear();
        seen.clear();
        write(`\n── ${state!.chats[active.chatId]?.title ?? active.chatId} ──\n`);
      }
      if (active.messages === messages) return;
      messages = active.messages;
      // Structural sharing: a message object that did not change since the last state is skipped.
      for (const m of active.messages) {
        if (seen.get(m.id) === m) continue;
        seen.set(m.id, m);
        printMessage(m);
      }
    },
  };
}

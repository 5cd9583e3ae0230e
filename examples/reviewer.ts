// examples/reviewer.ts — in this repository: npx tsx --conditions=source examples/reviewer.ts
import { defineAgent, startServer } from 'agentbar';

async function* words(text: string, signal: AbortSignal) {
  for (const word of text.split(/(?<= )/)) {
    if (signal.aborted) return;
    await new Promise((r) => setTimeout(r, 40)); // your model's stream goes here
    yield word;
  }
}

const reviewer = defineAgent({
  id: 'me/reviewer',
  description: 'Looks at what you picked on the page',
  tools: [{ name: 'get_selected_elements', runtime: 'toolbar' }],
  async run(ctx) {
    await ctx.reply.reasoning('The user wants a review of the selected elements.');
    const picked = await ctx.callTool({ name: 'get_selected_elements', requiresApproval: true });
    const { count } = picked.output as { count: number };
    await ctx.reply.text(words(`You picked ${count} elements and said: ${ctx.text}`, ctx.signal));
  },
  // Return { reject: reason } to refuse; the user sees the reason.
  onChatDelete: ({ run }) => (run ? { reject: 'Stop me first' } : undefined),
});

const server = await startServer({ agents: [reviewer], port: 4477 });
console.log(`Open ${server.httpUrl}/`);

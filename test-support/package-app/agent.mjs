// Plain Node, no TypeScript loader: an agent written against the public SDK (`agentbar`), served
// on a free port. Prints the connection as JSON once listening; SIGTERM closes it.
import { defineAgent, startServer } from 'agentbar';

const shout = defineAgent({
  id: 'me/shout',
  description: 'Answers in capitals',
  async run(ctx) {
    await ctx.reply.text(ctx.text.toUpperCase());
  },
});

const server = await startServer({ agents: [shout], port: 0, dataDir: process.argv[2] });
console.log(JSON.stringify({ url: server.url, token: server.token }));
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));

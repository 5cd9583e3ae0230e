// The same agent in TypeScript, type-checked against the .d.ts files the package ships.
import { defineAgent, startServer, type AgentDefinition, type RunContext } from 'agentbar';
import type { State } from 'agentbar/shared';

const shout: AgentDefinition = defineAgent({
  id: 'me/shout',
  description: 'Answers in capitals',
  async run(ctx: RunContext) {
    await ctx.reply.text(ctx.text.toUpperCase());
  },
});

const server = await startServer({ agents: [shout], port: 0, dataDir: process.argv[2] });
const agents: State['agents'] = server.store.state.agents;
console.log(server.url, agents.length);
await server.close();

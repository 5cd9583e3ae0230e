import { describe, expect, it } from 'vitest';
import { formatAgents } from './agents-command.ts';

describe('formatAgents', () => {
  it('lists each agent with its tools, workflows, active skill, and the commands, modes and settings it announced', () => {
    expect(
      formatAgents([
        { id: 'acp/claude-code', description: 'Claude Code over ACP', implemented: true, tools: [], workflows: [], commands: [{ name: 'review', description: 'Review' }, { name: 'compact', description: '' }], modes: [{ id: 'default', name: 'Default' }, { id: 'plan', name: 'plan' }], settings: [{ id: 'model', name: 'Model', defaultValue: 'default', options: [{ value: 'opus', name: 'Opus' }, { value: 'default', name: 'Default' }] }, { id: 'fast', name: 'Fast mode', type: 'boolean', defaultValue: 'false', options: [{ value: 'true', name: 'On' }, { value: 'false', name: 'Off' }] }] },
        { id: 'model/llama3.2', description: 'A model', implemented: true, tools: [{ name: 'query_selector', type: 'deterministic' }], workflows: ['triage'], activeSkill: 'review' },
        { id: 'demo/planner', description: 'Declared only', implemented: false, tools: [], workflows: [] },
      ]),
    ).toBe(
      [
        'acp/claude-code\n  Claude Code over ACP\n  commands: /review, /compact\n  modes: default (Default), plan\n  model (Model): opus, *default\n  fast (Fast mode): on/off (off by default)',
        'model/llama3.2\n  A model\n  tools: query_selector (deterministic)\n  workflows: triage\n  active skill: review',
        'demo/planner  (not implemented)\n  Declared only',
      ].join('\n\n'),
    );
  });
});

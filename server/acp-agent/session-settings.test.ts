import type { SessionConfigOption } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { readSessionModels, toAgentSettings, usesSessionModels, withSessionModels } from './session-settings.ts';

const gemini = {
  sessionId: 's',
  models: {
    currentModelId: 'gemini-2.5-pro',
    availableModels: [
      { modelId: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro', description: 'Most capable' },
      { modelId: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash', description: null },
    ],
  },
};

describe("a session's models (ACP's `models`, as Gemini CLI gives them)", () => {
  it('become a Model setting, as a model config option does, with the current model as its default', () => {
    const models = readSessionModels(gemini);
    expect(models).toEqual({
      currentModelId: 'gemini-2.5-pro',
      availableModels: [
        { modelId: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro', description: 'Most capable' },
        { modelId: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash' },
      ],
    });
    expect(toAgentSettings(withSessionModels(undefined, models), {})).toEqual([
      {
        id: 'model',
        name: 'Model',
        category: 'model',
        defaultValue: 'gemini-2.5-pro',
        options: [
          { value: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro', description: 'Most capable' },
          { value: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash' },
        ],
      },
    ]);
    expect(usesSessionModels(undefined, models, 'model')).toBe(true);
    expect(usesSessionModels(undefined, models, 'effort')).toBe(false);
  });

  it("give way to a config option that is the model: ACP asks clients to prefer it", () => {
    const options: SessionConfigOption[] = [{ id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'opus', options: [{ value: 'opus', name: 'Opus' }] }];
    const models = readSessionModels(gemini);
    expect(withSessionModels(options, models)).toEqual(options);
    expect(usesSessionModels(options, models, 'model')).toBe(false);
  });

  it('are none when the answer has none usable', () => {
    expect(readSessionModels({ sessionId: 's' })).toBeNull();
    expect(readSessionModels(null)).toBeNull();
    expect(readSessionModels({ models: { currentModelId: 'x', availableModels: [{ name: 'no id' }, 'text'] } })).toBeNull();
    expect(readSessionModels({ models: { availableModels: [{ modelId: 'x', name: 'X' }] } })).toBeNull();
    // A model without a name is named by its id.
    expect(readSessionModels({ models: { currentModelId: 'x', availableModels: [{ modelId: 'x' }] } })).toEqual({ currentModelId: 'x', availableModels: [{ modelId: 'x', name: 'x' }] });
  });
});

/**
 * The models a model agent may answer with: the default and the others of its Model menu, each
 * with its context window and price (its own, else the agent's), checked once when the agent is
 * made, and the one a chat's Model setting picks for a run.
 */
import type { LanguageModel } from 'ai';
import type { AgentSettingInput } from '../sdk/agent.ts';
import { checkPrice, type CheckedPrice, type ModelPrice } from './model-price.ts';

/** The id of the model agent's Model setting. */
const MODEL_SETTING = 'model';

/** What the model options of `createModelAgent` say (see `ModelAgentOptions`). */
export interface ModelChoices {
  model: LanguageModel;
  models?: readonly { id: string; name?: string; model: LanguageModel; contextWindow?: number; price?: ModelPrice }[];
  contextWindow?: number;
  price?: ModelPrice;
}

/** The model that answers a run, by the id its Model menu keeps. */
export interface ChosenModel {
  id: string;
  model: LanguageModel;
  contextWindow: number | undefined;
  price: CheckedPrice | undefined;
}

export interface ModelCatalog {
  /** The Model setting: none when there is only the one model. */
  settings: AgentSettingInput[];
  /** The model a chat's settings pick; a model no longer offered is the default. */
  choose(settings: Readonly<Record<string, string>>): ChosenModel;
}

/** A context window given in the options: a whole number of tokens, 1 or more, or none. */
function checkContextWindow(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${name} must be a whole number of tokens, 1 or more, not ${String(value)}`);
  return value;
}

/** What the Model menu calls a model: its id (`llama3.2`, `gpt-4o-mini`). */
function modelIdOf(model: LanguageModel): string {
  return typeof model === 'string' ? model : model.modelId;
}

/**
 * The catalog of `choices`. Throws a `TypeError` naming the option for a window or price that is
 * not one, or a price without a window (the cost is shown beside how full the context is).
 *
 * @example const { settings, choose } = createModelCatalog({ model: ollama('llama3.2'), contextWindow: 8192 });
 */
export function createModelCatalog(choices: ModelChoices): ModelCatalog {
  const defaultModelId = modelIdOf(choices.model);
  const byId = new Map<string, LanguageModel>([[defaultModelId, choices.model]]);
  const windowOf = new Map<string, number>();
  const priceOf = new Map<string, CheckedPrice>();
  const fallbackWindow = checkContextWindow(choices.contextWindow, 'contextWindow');
  const fallbackPrice = checkPrice(choices.price, 'price');
  if (fallbackPrice && !fallbackWindow) throw new TypeError('price needs contextWindow: the cost is shown beside how full the context is');
  if (fallbackWindow) windowOf.set(defaultModelId, fallbackWindow);
  if (fallbackPrice) priceOf.set(defaultModelId, fallbackPrice);
  for (const m of choices.models ?? []) {
    if (byId.has(m.id)) continue;
    byId.set(m.id, m.model);
    const name = `models[${JSON.stringify(m.id)}]`;
    const window = checkContextWindow(m.contextWindow, `${name}.contextWindow`) ?? fallbackWindow;
    const price = checkPrice(m.price, `${name}.price`) ?? fallbackPrice;
    if (window) windowOf.set(m.id, window);
    if (price && !window) throw new TypeError(`${name}.price needs a contextWindow (its own or the agent's): the cost is shown beside how full the context is`);
    if (price) priceOf.set(m.id, price);
  }
  const settings: AgentSettingInput[] =
    byId.size > 1
      ? [
          {
            id: MODEL_SETTING,
            name: 'Model',
            category: 'model',
            defaultValue: defaultModelId,
            options: [{ value: defaultModelId, name: defaultModelId }, ...(choices.models ?? []).map((m) => ({ value: m.id, name: m.name ?? m.id }))],
          },
        ]
      : [];
  return {
    settings,
    choose(chatSettings) {
      const chosen = chatSettings[MODEL_SETTING];
      const id = chosen !== undefined && byId.has(chosen) ? chosen : defaultModelId;
      return { id, model: byId.get(id)!, contextWindow: windowOf.get(id), price: priceOf.get(id) };
    },
  };
}

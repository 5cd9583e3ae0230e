/**
 * A JSON copy of a value (undefined becomes null); throws for BigInt, cycles or too deep nesting.
 * Agent output becomes client input: only what survives a JSON round trip goes into the state.
 *
 * @example toJsonValue({ at: new Date(0) }) // { at: '1970-01-01T00:00:00.000Z' }
 */
export function toJsonValue(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? null : JSON.parse(text);
}

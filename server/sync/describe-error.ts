/**
 * The message of anything thrown (an Error, a string, any value), for logs and failed messages.
 *
 * @example describeError(new Error('boom')) // 'boom'
 */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  try {
    return typeof error === 'string' ? error : JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/**
 * How a view's store runs a command: a failure becomes the message the view shows (in its
 * `role="alert"`), never an unhandled rejection. Returns false when the command failed.
 */
import type { Signal } from '@preact/signals';
import { errorMessage } from '../core/errors.ts';

export function commandRunner(error: Signal<string | null>): (work: () => Promise<void>) => Promise<boolean> {
  return async (work) => {
    try {
      await work();
      return true;
    } catch (e) {
      error.value = errorMessage(e);
      return false;
    }
  };
}

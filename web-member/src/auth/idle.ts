import { useEffect } from 'react';
import { endSession } from './session';

declare global {
  interface Window {
    /** Browser tests may shorten the idle time-out by setting this before the app loads. */
    __IDLE_TIMEOUT_MS__?: number;
  }
}

/** Idle time-out: 15 minutes (seed 000 §9). */
export const IDLE_TIMEOUT_MS = 900_000;

export const IDLE_ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'scroll', 'wheel', 'click', 'touchstart'] as const;

export function idleTimeoutMs(): number {
  const override = typeof window !== 'undefined' ? window.__IDLE_TIMEOUT_MS__ : undefined;
  return typeof override === 'number' && override > 0 ? override : IDLE_TIMEOUT_MS;
}

/** Ends the session after a period without mouse, keyboard, scroll, click or touch activity. */
export function useIdleLogout(enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    const timeout = idleTimeoutMs();
    let timer = window.setTimeout(expire, timeout);

    function expire() {
      endSession('You were signed out after a period of inactivity.');
    }
    function reset() {
      window.clearTimeout(timer);
      timer = window.setTimeout(expire, timeout);
    }

    const opts: AddEventListenerOptions = { passive: true, capture: true };
    for (const e of IDLE_ACTIVITY_EVENTS) window.addEventListener(e, reset, opts);
    return () => {
      window.clearTimeout(timer);
      for (const e of IDLE_ACTIVITY_EVENTS) window.removeEventListener(e, reset, opts);
    };
  }, [enabled]);
}

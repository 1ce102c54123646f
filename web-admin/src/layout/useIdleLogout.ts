import { useEffect } from 'react';
import { endSessionAfterIdle } from '../authProvider';

declare global {
  interface Window {
    /** Tests shorten the idle limit by setting this before the app loads. */
    __IDLE_TIMEOUT_MS__?: number;
  }
}

/** Seed 000 §9 / 001 §9: 15 minutes without activity ends the admin session. */
export const IDLE_TIMEOUT_MS = 900_000;

const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'scroll', 'wheel', 'click', 'touchstart'] as const;

const idleTimeout = (): number => {
  const override = window.__IDLE_TIMEOUT_MS__;
  return typeof override === 'number' && override > 0 ? override : IDLE_TIMEOUT_MS;
};

export const useIdleLogout = (): void => {
  useEffect(() => {
    let timer: number | undefined;
    let ended = false;
    const restart = () => {
      if (ended) return;
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        ended = true;
        void endSessionAfterIdle();
      }, idleTimeout());
    };
    const options: AddEventListenerOptions = { passive: true, capture: true };
    ACTIVITY_EVENTS.forEach((name) => window.addEventListener(name, restart, options));
    restart();
    return () => {
      window.clearTimeout(timer);
      ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, restart, options));
    };
  }, []);
};

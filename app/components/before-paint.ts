import { useEffect, useLayoutEffect } from "react";

/**
 * An effect that runs as React puts its render in the page, before the browser paints or runs any other task (a key
 * pressed, a click): useLayoutEffect in the browser. The server has no layout, and React 18 warns about
 * useLayoutEffect there, so it is a plain effect on the server (where neither runs).
 */
export const useBeforePaintEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

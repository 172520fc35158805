// Stretches, on purpose, the two windows a loaded machine's scheduler can open in
// Miniflare's synchronous binding proxy (see bindings.ts): the Node thread reaching
// Atomics.wait late after posting a request, and Miniflare's helper thread pausing
// between Atomics.store and Atomics.notify. Only timing changes, nothing else.
// Preloaded with --require because that also runs in worker threads:
//   NODE_OPTIONS="--require ./tests/support/preempt.cjs" npx vitest run --project integration tests/integration/terminals.test.ts
// With the proxy, the first stale wake-up fails fetch-sync.ts:147 and every later
// binding call in that file; through the node-bindings Worker, tests pass.
// wrangler (`d1 migrations apply --local`, run by the seed) uses the same proxy inside
// its own process, a few calls per migration; that is wrangler's code, left alone here.
const exempt = process.argv.some((arg) => /[\\/]wrangler[\\/]/.test(arg));
const { isMainThread } = process.getBuiltinModule("node:worker_threads");
const wait = Atomics.wait.bind(Atomics);
const notify = Atomics.notify.bind(Atomics);
const nap = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms) => wait(nap, 0, 0, ms);
const chance = Number(process.env.PREEMPT_CHANCE ?? 0.05);

if (exempt) {
  // Leave wrangler's own process alone.
} else if (isMainThread) {
  Atomics.wait = (array, index, value, timeout) => {
    if (array !== nap && Math.random() < chance) sleep(20);
    return wait(array, index, value, timeout);
  };
} else {
  Atomics.notify = (array, index, count) => {
    if (Math.random() < chance) sleep(40);
    return notify(array, index, count);
  };
}

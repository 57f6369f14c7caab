// The cluster's control lives beside the benchmark, which the production build compiles too
// (`npm run bench -- --only=cluster`); the suites use it from there.
export * from 'bench/galera';

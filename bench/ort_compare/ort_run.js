// ONNX Runtime's CPU run of one model, the same-run baseline that bench_ort_compare starts as a
// child process (BENCHMARKS.md, "Functional execution against ONNX Runtime").
//
//   node ort_run.js MODEL.onnx INPUT.f32 INPUT_NAME DIMS THREADS WARMUP RUNS|serve OUTPUT.f32 [OPT_LEVEL]
//
// INPUT.f32 holds the float32 input (little-endian, DIMS like 1,3,224,224); the first graph output
// of the last run is written to OUTPUT.f32 so the caller can check both runtimes computed the same
// thing. Prints one JSON line: {"output": name, "times_ms": [wall time per timed run],
// "cpu_ms": [CPU time of all the process's threads per timed run], "rss_before_mb": node's
// resident memory before the session is created, "peak_rss_mb": the process's peak}.
//
// With RUNS = serve, the warmed-up session prints {"ready": true} and then answers lines on
// stdin: each "run" makes one untimed and one timed run and prints {"time_ms": t, "cpu_ms": c};
// "quit" (or the end of stdin) writes OUTPUT.f32 and prints the JSON line above without the
// per-run lists. bench_ort_compare --interleave uses it to alternate ONNX Runtime's runs with its
// backends', stopping this process (SIGSTOP) while they run.
// onnxruntime-node is resolved from NODE_PATH (the directory npm installed package.json into).
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main(argv) {
  if (argv.length < 8) {
    process.stderr.write('usage: node ort_run.js MODEL INPUT.f32 INPUT_NAME DIMS THREADS WARMUP RUNS|serve OUTPUT.f32 [OPT_LEVEL]\n');
    return 2;
  }
  const [model, inputFile, inputName, dimsText, threads, warmup, runs, outputFile] = argv;
  const rssBeforeMb = process.memoryUsage().rss / (1024 * 1024);
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: Number(threads),
    interOpNumThreads: 1,
    graphOptimizationLevel: argv[8] || 'all',
  });
  const dims = dimsText.split(',').map(Number);
  const bytes = fs.readFileSync(inputFile);
  const data = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const feeds = { [inputName]: new ort.Tensor('float32', data, dims) };
  let result;
  for (let i = 0; i < Number(warmup); ++i) result = await session.run(feeds);
  const timedRun = async () => {
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    result = await session.run(feeds);
    const cpu = process.cpuUsage(cpuStart);
    return { time_ms: Number(process.hrtime.bigint() - start) / 1e6, cpu_ms: (cpu.user + cpu.system) / 1e3 };
  };
  const summary = {};
  if (runs === 'serve') {
    process.stdout.write('{"ready": true}\n');
    const lines = require('readline').createInterface({ input: process.stdin });
    for await (const line of lines) {
      if (line.trim() === 'quit') break;
      if (line.trim() !== 'run') throw new Error(`unknown request '${line}' (expected run or quit)`);
      await session.run(feeds);  // as bench_ort_compare does for its own: see --interleave there
      process.stdout.write(JSON.stringify(await timedRun()) + '\n');
    }
    lines.close();
    if (result === undefined) result = await session.run(feeds);
  } else {
    summary.times_ms = [];
    summary.cpu_ms = [];
    for (let i = 0; i < Number(runs); ++i) {
      const timed = await timedRun();
      summary.times_ms.push(timed.time_ms);
      summary.cpu_ms.push(timed.cpu_ms);
    }
  }
  const outputName = session.outputNames[0];
  const output = result[outputName].data;
  fs.writeFileSync(outputFile, Buffer.from(output.buffer, output.byteOffset, output.byteLength));
  const peakRssMb = process.resourceUsage().maxRSS / 1024;  // maxRSS is in KiB
  process.stdout.write(JSON.stringify({ output: outputName, ...summary,
                                        rss_before_mb: rssBeforeMb, peak_rss_mb: peakRssMb }) + '\n');
  return 0;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (error) => {
  process.stderr.write(`ort_run.js: ${error.message}\n`);
  process.exitCode = 1;
});

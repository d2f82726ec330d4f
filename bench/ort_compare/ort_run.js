// ONNX Runtime's CPU run of one model, the same-run baseline that bench_ort_compare starts as a
// child process (BENCHMARKS.md, "Functional execution against ONNX Runtime").
//
//   node ort_run.js MODEL.onnx INPUT.f32 INPUT_NAME DIMS THREADS WARMUP RUNS OUTPUT.f32 [OPT_LEVEL]
//
// INPUT.f32 holds the float32 input (little-endian, DIMS like 1,3,224,224); the first graph output
// of the last run is written to OUTPUT.f32 so the caller can check both runtimes computed the same
// thing. Prints one JSON line: {"output": name, "times_ms": [wall time per timed run],
// "cpu_ms": [CPU time of all the process's threads per timed run], "rss_before_mb": node's
// resident memory before the session is created, "peak_rss_mb": the process's peak}.
// onnxruntime-node is resolved from NODE_PATH (the directory npm installed package.json into).
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main(argv) {
  if (argv.length < 8) {
    process.stderr.write('usage: node ort_run.js MODEL INPUT.f32 INPUT_NAME DIMS THREADS WARMUP RUNS OUTPUT.f32 [OPT_LEVEL]\n');
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
  for (let i = 0; i < Number(warmup); ++i) await session.run(feeds);
  const times = [];
  const cpuTimes = [];
  let result;
  for (let i = 0; i < Number(runs); ++i) {
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    result = await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    const cpu = process.cpuUsage(cpuStart);
    cpuTimes.push((cpu.user + cpu.system) / 1e3);
  }
  const outputName = session.outputNames[0];
  const output = result[outputName].data;
  fs.writeFileSync(outputFile, Buffer.from(output.buffer, output.byteOffset, output.byteLength));
  const peakRssMb = process.resourceUsage().maxRSS / 1024;  // maxRSS is in KiB
  process.stdout.write(JSON.stringify({ output: outputName, times_ms: times, cpu_ms: cpuTimes,
                                        rss_before_mb: rssBeforeMb, peak_rss_mb: peakRssMb }) + '\n');
  return 0;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (error) => {
  process.stderr.write(`ort_run.js: ${error.message}\n`);
  process.exitCode = 1;
});

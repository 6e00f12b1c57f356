// burn.js MS NAME=WEIGHT...: rounds of 10,000,000 iterations of one
// busy loop, each named function (hot, cold, warm) running its weight's
// share of them in its own copy of the loop, until the process has had
// MS milliseconds of CPU time (read once a round).  The loops allocate
// nothing (small integers only: no garbage to collect) and call nothing:
// a function's samples are its own, in proportion to its iterations.
'use strict';
const ROUND = 10000000;

function hot(n) {
	let x = 0;
	for (let i = 0; i < n; i++)
		x = (x * 31 + i) & 0xffff;
	return x;
}
function cold(n) {
	let x = 0;
	for (let i = 0; i < n; i++)
		x = (x * 31 + i) & 0xffff;
	return x;
}
function warm(n) {
	let x = 0;
	for (let i = 0; i < n; i++)
		x = (x * 31 + i) & 0xffff;
	return x;
}
function cpuMs() {
	const u = process.cpuUsage();
	return (u.user + u.system) / 1000;
}
const functions = { hot, cold, warm };
const total = Number(process.argv[2]);
const plan = process.argv.slice(3).map(a => a.split('='));
const weights = plan.reduce((s, [, w]) => s + Number(w), 0);
let sink = 0;
for (const start = cpuMs(); cpuMs() - start < total;)
	for (const [name, w] of plan)
		sink += functions[name](Math.round(ROUND * Number(w) / weights));
if (sink === 42)
	console.log(sink);

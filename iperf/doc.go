// Package iperf reads and writes iperf3 results: the JSON log of iperf3 3.x
// TCP tests (forward and reverse, one or many streams), the per-second CSV
// traces and end-summary CSVs of the Starlink dataset in ../shared/data, and
// an iperf 3.16-compatible JSON rendering of a leolab result.Flow.
//
// Real logs are messy. The reader keeps the first JSON document, tolerates
// whatever follows it (iperf_json_finish lines, a second document carrying an
// "error", iperf_errexit lines), accepts an "error" inside the first document
// with zero-byte tail intervals, missing fields and implausible values, and
// reports each oddity as a Warning instead of failing. Only input that is not
// an iperf3 TCP document at all (not JSON, truncated, another protocol) is an
// error, and that error names the file and the byte offset.
//
// Run is the typed form of one log; Run.Flows converts it to result.Flow so
// analysis treats iperf3 logs and leolab results alike.
package iperf

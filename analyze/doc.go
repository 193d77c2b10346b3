// Package analyze owns `leolab analyze`: it finds the inputs (iperf3 JSON
// logs, leolab result JSON, the Starlink dataset's per-second CSV traces and
// end-summary CSVs, directories of them), reads each with the package that
// owns its format, groups the flows by congestion control, city, direction
// and scenario kind (from file names or metadata), computes per-flow metrics,
// fairness across concurrent flows, the 15 s reconfiguration-slot profile and
// the seed-000 M/G/1 queue estimate, and lays them out as a metrics table and
// a report.Report.
//
// Processing is separate from writing: Load and Analyze are pure apart from
// reading the inputs, BuildReport only assembles figures and tables, and the
// command (cmd/leolab/analyze.go) prints and writes. One unreadable file never
// stops the others: Load returns one error per bad file, naming the file and,
// for malformed JSON, the byte offset.
//
// Per-flow figures are computed from the per-interval series whenever a source
// has one (so every kind of input is measured alike); the source's own summary
// (iperf3's end block, a leolab result's flow fields) is kept beside them as
// Reported. Summary-only inputs (end-summary CSV rows) carry only the reported
// figures.
package analyze

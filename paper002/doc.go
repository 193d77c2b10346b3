// Package paper002 is seed 002's evaluation as leolab runs it (Mazilu,
// Valentine & Parisis, "Evaluating Learning Congestion control Schemes for
// LEO Constellations", arXiv 2510.25498): one campaign per figure —
// single and competing flows on LeoEM's San Diego → New York path (Figs.
// 1–2), responsiveness to bandwidth and RTT steps (Figs. 3–4), RTT asymmetry
// (Figs. 5, 6 and 9a with SFQ), a three-bottleneck parking lot (Fig. 7,
// and 9b with SFQ), flows moved between a 50 ms and a 20 ms path (Fig. 8),
// five flows under each AQM (Fig. 9c) and a random-loss check of finding 3
// — and the report that reads their runs back
// from a campaign store: each figure captioned with what the paper reports
// and what we measured (means over runs with t-based 95 % confidence
// intervals, package metrics), and a verdict on each of the paper's five
// findings with its numbers.
//
// The campaigns are embedded (campaigns/*.yaml, the same files as
// examples/seed002/campaigns/) with the part of LeoEM's path file they replay
// (leoem/). The topology figures (fig_topology.go) are campaigns with
// template.links. A Figure without a campaign file would be listed in the
// report with what it waits for (Figure.Needs).
//
// On the live emulator (Options.Engine = EngineEmu, live.go) the figures
// whose scenarios emu runs go live with kernel TCP at live sizes, the
// others say why they are sim only (Figure.SimOnly); every live run is
// checked against the physical bounds the link model fixes (livecheck.go,
// tolerances in livetol.go), and a CBR probe over the LeoEM path
// (probe.go) reads its one-way delay second by second against the file.
//
// The package runs nothing itself and prints nothing: the caller executes
// the runs (locally or on NATS workers) into a store and hands it over.
package paper002

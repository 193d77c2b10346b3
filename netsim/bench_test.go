package netsim_test

import (
	"testing"
	"time"
)

// BenchmarkCubicDumbbell60s runs the scenario of the simulator core's
// utilisation test (one CUBIC flow, 100 Mbit/s, 50 ms, 417-packet drop-tail
// queue, 60 s) and reports simulated packets (data and ACKs delivered) per
// wall-second and simulated seconds per wall-second. ns-3.37 from Debian
// needs ~14 s of wall time for this scenario on the development machine.
func BenchmarkCubicDumbbell60s(b *testing.B) {
	benchExample(b, "dumbbell-cubic.yaml")
}

// BenchmarkStarlinkSydneyDownlink60s: one CUBIC flow over the Starlink
// downlink model from Sydney.
func BenchmarkStarlinkSydneyDownlink60s(b *testing.B) {
	benchExample(b, "starlink/sydney-downlink-cubic.yaml")
}

func benchExample(b *testing.B, name string) {
	var packets, simulated float64
	start := time.Now()
	for i := 0; i < b.N; i++ {
		res := runExample(b, name)
		packets += res.Instrument["packets_delivered"]
		simulated += res.DurationS
	}
	wall := time.Since(start).Seconds()
	b.ReportMetric(packets/wall, "pkts/s")
	b.ReportMetric(simulated/wall, "sim-s/s")
}

package emu

import (
	"time"

	"github.com/leolab/leolab/endpoint"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/result"
)

// fairness computes the result's fairness block as the simulator does:
// over the bytes of the non-CBR flows in the intervals after the latest
// flow start.
func fairness(flows []result.Flow, cfg []Flow, dur time.Duration) result.Fairness {
	var from time.Duration
	for _, f := range cfg {
		from = max(from, f.Start)
	}
	out := result.Fairness{WindowStartS: from.Seconds(), WindowEndS: dur.Seconds()}
	var tput []float64
	for _, f := range flows {
		if f.CCA == "cbr" {
			continue
		}
		var bytes int64
		for _, iv := range f.Intervals {
			if iv.T > out.WindowStartS && iv.T <= out.WindowEndS {
				bytes += iv.Bytes
			}
		}
		tput = append(tput, float64(bytes))
	}
	if len(tput) == 0 {
		return out
	}
	a := metrics.Allocation(tput)
	out.Jain, out.MaxMin = a.Jain, a.MinMax
	out.Shares = a.Shares
	return out
}

// probeRecords turns a traced CBR flow into the result's per-packet records
// (endpoint.ProbeRecords, at the flow's rate and size).
func probeRecords(rep *endpoint.CBRReport, f Flow) []result.ProbePacket {
	size := f.Size
	if size == 0 {
		size = packet.MTU
	}
	gap := time.Duration(float64(size*8) / f.RateBps * float64(time.Second))
	return endpoint.ProbeRecords(rep, rep.Sent, f.Start, gap, 0)
}

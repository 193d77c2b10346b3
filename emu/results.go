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
// in sending order: one-way delay for received packets, -1 for lost ones
// (whose send time is their schedule's, rate and size from the flow).
func probeRecords(rep *endpoint.CBRReport, f Flow) []result.ProbePacket {
	if rep.Trace == nil || rep.Sent == 0 {
		return nil
	}
	size := f.Size
	if size == 0 {
		size = packet.MTU
	}
	gap := time.Duration(float64(size*8) / f.RateBps * float64(time.Second))
	out := make([]result.ProbePacket, rep.Sent)
	for k := range out {
		out[k] = result.ProbePacket{Seq: uint64(k), SentS: (f.Start + time.Duration(k)*gap).Seconds(), OWDMs: -1}
	}
	for _, p := range rep.Trace {
		if p.Seq >= 0 && p.Seq < int64(len(out)) {
			out[p.Seq].SentS = p.Sent.Seconds()
			out[p.Seq].OWDMs = float64(p.Recv-p.Sent) / float64(time.Millisecond)
		}
	}
	return out
}

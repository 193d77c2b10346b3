package netsim

import (
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/result"
)

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func (n *net) result() *result.Result {
	s := n.spec
	res := &result.Result{
		Engine:    "sim",
		Scenario:  s.Name,
		Seed:      s.Seed,
		EpochUTC:  s.EpochUTC,
		DurationS: s.Duration.Seconds(),
		Path: result.Path{
			Profile:   s.Profile,
			City:      s.City,
			Direction: s.Direction,
			BaseRTTMs: ms(s.BaseRTT),
		},
	}
	if first := n.hops[0].samples; len(first) > 0 {
		res.Path.RateMbps = first[0].snap.RateBps / 1e6
	}
	for _, f := range n.flows {
		res.Flows = append(res.Flows, f.result(s.Duration))
	}
	for _, h := range n.hops {
		res.Links = append(res.Links, h.result())
	}
	res.Fairness = fairness(res.Flows, n.fairnessFrom(), s.Duration)
	return res
}

func (n *net) fairnessFrom() time.Duration {
	if n.spec.FairnessFrom > 0 {
		return n.spec.FairnessFrom
	}
	var from time.Duration
	for _, f := range n.spec.Flows {
		from = max(from, f.Start)
	}
	return from
}

func (f *flow) result(dur time.Duration) result.Flow {
	out := result.Flow{
		ID:     f.idx,
		CCA:    f.spec.CCA,
		StartS: f.spec.Start.Seconds(),
		EndS:   dur.Seconds(),
	}
	if f.spec.Stop > 0 && f.spec.Stop < dur {
		out.EndS = f.spec.Stop.Seconds()
	}
	active := out.EndS - out.StartS
	for _, s := range f.samples {
		iv := result.Interval{
			T:             s.t.Seconds(),
			Bytes:         s.bytes,
			Retransmits:   s.retrans,
			CWndBytes:     s.cwnd,
			SRTTMs:        ms(s.srtt),
			RTTVarMs:      ms(s.rttvar),
			PacingRateBps: s.pacingRate,
			CC:            s.cc,
			OWDMs:         ms(s.owd),
			Lost:          s.lost,
		}
		out.Intervals = append(out.Intervals, iv)
	}
	if f.spec.Kind == CBR {
		// A probe's packets keep arriving after it stops sending: its
		// throughput is over the time until the last one arrived.
		if f.lastArrival.Seconds() > out.EndS {
			active = f.lastArrival.Seconds() - out.StartS
		}
		out.CCA = "cbr"
		out.SentPackets = f.cbrSent
		out.LostPackets = f.dropped
		out.BytesAcked = f.cbrRecv * int64(f.spec.PacketSize)
		out.MeanOWDMs = ms(f.owd.mean())
		out.P95OWDMs = ms(f.owd.quantile(0.95))
		for i, r := range f.records {
			pp := result.ProbePacket{Seq: uint64(i), SentS: r.sent.Seconds()}
			switch {
			case r.arrival < 0:
				pp.OWDMs = -1
			case r.arrival > 0:
				pp.OWDMs = ms(r.arrival - r.sent)
			}
			out.Packets = append(out.Packets, pp)
		}
	} else {
		st := f.snd.Stats()
		out.BytesAcked = st.BytesAcked
		out.Retransmits = st.Retransmits
		out.SentPackets = st.DataSegsOut
		out.RTOs = st.RTOs
		h := &f.ctrl.rtt
		out.MinRTTMs = ms(h.min)
		out.MeanRTTMs = ms(h.mean())
		out.P95RTTMs = ms(h.quantile(0.95))
		if h.min > 0 {
			out.RTTInflation = float64(h.mean()) / float64(h.min)
		}
		if out.BytesAcked > 0 {
			out.RetransPerGB = float64(out.Retransmits) / (float64(out.BytesAcked) / 1e9)
		}
	}
	if active > 0 {
		out.ThroughputMbps = float64(out.BytesAcked) * 8 / active / 1e6
	}
	return out
}

// DropCounts converts per-cause drop counters (indexed by link.DropCause)
// to the result schema; the live emulator shares it.
func DropCounts(d *[link.NumDropCauses]int64) result.Drops {
	return result.Drops{
		Head:    d[link.DropHead],
		Tail:    d[link.DropTail],
		AQM:     d[link.DropAQM],
		Random:  d[link.DropRandom],
		Outage:  d[link.DropOutage],
		Policer: d[link.DropPolicer],
	}
}

func (l *linkState) result() result.Link {
	out := result.Link{
		Name:      l.name,
		Hop:       l.hop,
		Direction: l.dir,
		Delivered: l.delivered,
		Drops:     DropCounts(&l.drops),
	}
	for _, s := range l.samples {
		out.Intervals = append(out.Intervals, result.LinkSample{
			T:              s.t.Seconds(),
			AllocMbps:      s.snap.RateBps / 1e6,
			QueuePkts:      s.snap.QueuePackets,
			DeliveredBytes: s.delivered,
			Drops:          DropCounts(&s.drops),
		})
	}
	return out
}

// fairness computes Jain's index (Jain, Chiu & Hawe 1984: (ΣT)²/(N·ΣT²))
// and max–min closeness (min T / max T) over the transport flows'
// throughput in the window (from, to].
func fairness(flows []result.Flow, from, to time.Duration) result.Fairness {
	out := result.Fairness{WindowStartS: from.Seconds(), WindowEndS: to.Seconds()}
	var tput []float64
	for _, f := range flows {
		if f.CCA == "cbr" {
			continue
		}
		var bytes int64
		for _, iv := range f.Intervals {
			if iv.T > from.Seconds() && iv.T <= to.Seconds() {
				bytes += iv.Bytes
			}
		}
		tput = append(tput, float64(bytes))
	}
	if len(tput) == 0 {
		return out
	}
	var sum, sq, hi, lo float64
	lo = tput[0]
	for _, t := range tput {
		sum += t
		sq += t * t
		hi = max(hi, t)
		lo = min(lo, t)
	}
	if sq > 0 {
		out.Jain = sum * sum / (float64(len(tput)) * sq)
	}
	if hi > 0 {
		out.MaxMin = lo / hi
	}
	if sum > 0 {
		for _, t := range tput {
			out.Shares = append(out.Shares, t/sum)
		}
	}
	return out
}

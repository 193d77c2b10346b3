package paper002

import (
	"fmt"
	"math"
	"slices"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/leolab/leolab/campaign"
)

// The live study's path probe: the LeoEM figure's path (the same delay
// replay, handover interruptions, rate and queue) carrying only a CBR
// stream of small packets, whose one-way delays read the replayed path
// second by second against the path file (issue 19 acceptance 4, live).
// The store keeps no probe packets, so the caller runs it each time
// (campaign.Emu) and hands the result over in Data.Probe.
const (
	// probeSize and probePPS: 125-byte packets at 1000 per second (1
	// Mbit/s, under 1 % of the 150 Mbit/s link: no queue builds), one
	// packet per ms to resolve the path's few-ms handover interruptions.
	probeSize = 125
	probePPS  = 1000
)

// PathProbe is the probe run over the first live LeoEM part's path: its
// first run's scenario with one recorded CBR flow in place of the TCP
// flows. ok is false when the study has no such part.
func PathProbe(parts []*Part) (campaign.Run, bool, error) {
	for _, p := range parts {
		if _, ok := p.Campaign.Path["delay_file"]; !ok || p.Campaign.Engine != EngineEmu || len(p.Runs) == 0 {
			continue
		}
		r := p.Runs[0]
		var sc map[string]any
		if err := yaml.Unmarshal([]byte(r.Scenario), &sc); err != nil {
			return campaign.Run{}, false, fmt.Errorf("paper002: path probe: %s: %w", r.Name(), err)
		}
		sc["name"] = "leoem-path-probe"
		sc["flows"] = []any{map[string]any{"cca": "cbr", "rate": fmt.Sprintf("%dkbps", probeSize*8*probePPS/1000),
			"packet_size": probeSize, "record": true}}
		text, err := yaml.Marshal(sc)
		if err != nil {
			return campaign.Run{}, false, fmt.Errorf("paper002: path probe: %w", err)
		}
		run, err := campaign.NewRun(EngineEmu, campaign.Dedicated, "", "", []string{"cbr"}, r.Seed, string(text))
		if err != nil {
			return campaign.Run{}, false, fmt.Errorf("paper002: path probe: %w", err)
		}
		return run, true, nil
	}
	return campaign.Run{}, false, nil
}

// probeChecks reads the probe's packets against the path file: each
// second's median one-way delay, the seconds measured, the packets lost.
func (d *Data) probeChecks() []LiveCheck {
	res := d.Probe
	if res == nil || d.path == nil || len(res.Flows) == 0 {
		return nil
	}
	gap := time.Duration(res.Instrument["pump_gap_max_us"] * float64(time.Microsecond))
	add := func(what string, v, lo, hi float64, unit, why string) LiveCheck {
		return LiveCheck{Figure: "fig1", Run: "leoem-path-probe", What: what, Value: v, Lo: lo, Hi: hi, Unit: unit, Why: why,
			PumpGap: gap, Stalled: gap > liveStall}
	}
	n := min(int(res.DurationS), len(d.path.OWD)-d.pathFirst)
	per := make([][]float64, n)
	lost := 0
	for _, p := range res.Flows[0].Packets {
		k := int(p.SentS)
		if k < 0 || k >= n || p.OWDMs == 0 {
			continue
		}
		if p.OWDMs < 0 {
			lost++
			continue
		}
		// The pump's timing at a second's edge: a packet sent within 5
		// ms of it may see either second's delay.
		if frac := p.SentS - float64(k); frac >= 0.005 && frac <= 0.995 {
			per[k] = append(per[k], p.OWDMs)
		}
	}
	worst, at, measured, up := 0.0, 0, 0, 0
	allowLost := 0.0
	for k := range n {
		i := d.pathFirst + k
		if d.path.Down[i] {
			allowLost += probePPS
			continue
		}
		up++
		if d.path.Interruption[i] > 0 {
			// the interruption's packets, and one either side for the
			// pump's timing at its edges
			allowLost += math.Ceil(d.path.Interruption[i].Seconds()*probePPS) + 2
		}
		if len(per[k]) == 0 {
			continue
		}
		measured++
		slices.Sort(per[k])
		if e := math.Abs(per[k][len(per[k])/2] - d.path.OWD[i]*1e3); e > worst {
			worst, at = e, k
		}
	}
	return []LiveCheck{
		add(fmt.Sprintf("probe: worst per-second median one-way delay − path file (second %d)", at), worst, math.NaN(), owdTolerance, "ms",
			"the path file's one-way delay of each second, ± the pump's release error (p99 < 200 µs)"),
		add("probe: seconds measured", float64(measured), float64(up-1), math.NaN(), "s",
			"every second the path is up holds probe packets (the first may start late)"),
		add("probe: packets lost", float64(lost), math.NaN(), allowLost, "",
			fmt.Sprintf("only in the path file's NULL seconds and LeoEM's handover interruptions (%d packets/s, + 2 per interruption)", probePPS)),
	}
}

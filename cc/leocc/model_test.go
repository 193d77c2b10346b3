package leocc

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
)

// modeSpan records when each mode was entered.
type modeSpan struct {
	m  mode
	at time.Duration
}

func modeLog(p *cctest.Path, l *LeoCC) *[]modeSpan {
	var log []modeSpan
	p.Observe = func(now time.Duration, _ *cc.RateSample) {
		if len(log) == 0 || log[len(log)-1].m != l.mode {
			log = append(log, modeSpan{l.mode, now})
		}
	}
	return &log
}

// TestScheduledReconfiguration: with a schedule (period 15 s, offset 6 s)
// LeoCC enters PROBE_RTT on the first ACK of the 100 ms before the
// boundary, holds 0.5·BDP for 200 ms plus a round, leaves into STARTUP,
// and the STARTUP's full pipe ends the reconfiguration.
func TestScheduledReconfiguration(t *testing.T) {
	cfg := testConfig(map[string]float64{"offset_s": 6}, nil)
	p, l := newPath(t, cfg, 100e6, 40*time.Millisecond)
	log := modeLog(p, l)
	var maxProbeCwnd int
	inner := p.Observe
	p.Observe = func(now time.Duration, rs *cc.RateSample) {
		inner(now, rs)
		if l.mode == modeProbeRTT && l.probeArmed {
			maxProbeCwnd = max(maxProbeCwnd, l.cwnd)
		}
	}
	p.Run(9 * time.Second)
	var probe, startup, drain time.Duration
	for i, s := range *log {
		if s.m == modeProbeRTT && s.at > 5*time.Second {
			probe = s.at
			if i+2 < len(*log) && (*log)[i+1].m == modeStartup && (*log)[i+2].m == modeDrain {
				startup, drain = (*log)[i+1].at, (*log)[i+2].at
			}
			break
		}
	}
	if probe < 5900*time.Millisecond || probe > 5902*time.Millisecond {
		t.Fatalf("PROBE_RTT at %v (modes %v), want on the first ACK after 5.9 s", probe, *log)
	}
	if startup == 0 {
		t.Fatalf("no PROBE_RTT → STARTUP → DRAIN after the trigger: modes %v", *log)
	}
	if d := startup - probe; d < probeRTTDur || d > probeRTTDur+4*40*time.Millisecond {
		t.Errorf("PROBE_RTT lasted %v, want 200 ms plus 1–4 rounds of 40 ms", d)
	}
	if bdp := 12.5e6 * 0.040; float64(maxProbeCwnd) > 0.5*bdp+2*1448 {
		t.Errorf("cwnd in PROBE_RTT up to %d B, want ≤ 0.5·BDP = %.0f B", maxProbeCwnd, 0.5*bdp)
	}
	if l.reconfiguring || drain == 0 || l.trig.count != 1 {
		t.Errorf("reconfiguring %v, DRAIN at %v, triggers %d: want cleared by STARTUP's full pipe, 1 trigger", l.reconfiguring, drain, l.trig.count)
	}
}

// TestBandwidthReset: at the boundary the path drops from 100 to 60
// Mbit/s and its RTT from 100 to 50 ms (a reconfiguration with a −50 ms
// base-RTT step, seed 001), behind a 400-packet buffer. In PROBE_RTT the first sample 45 ms below the Kalman
// RTT captures the post-reconfiguration bandwidth; leaving PROBE_RTT
// resets the max filter to it, and STARTUP then measures the new rate.
func TestBandwidthReset(t *testing.T) {
	const boundary = 6 * time.Second
	cfg := testConfig(map[string]float64{"offset_s": boundary.Seconds()}, nil)
	l, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := &cctest.Path{C: l, MSS: 1448,
		Rate: func(t time.Duration) float64 { return map[bool]float64{true: 100e6 / 8, false: 60e6 / 8}[t < boundary] },
		RTT: func(t time.Duration) time.Duration {
			return map[bool]time.Duration{true: 100 * time.Millisecond, false: 50 * time.Millisecond}[t < boundary]
		}}
	var captured, atReset float64
	var resetAt time.Duration
	prevMode := l.mode
	p.Observe = func(now time.Duration, _ *cc.RateSample) {
		if l.mode == modeProbeRTT && l.reconfigBw > 0 {
			captured = l.reconfigBw
		}
		if prevMode == modeProbeRTT && l.mode == modeStartup && resetAt == 0 {
			resetAt, atReset = now, l.bw.Get()
		}
		prevMode = l.mode
	}
	p.Buffer = 400 * 1448
	p.Run(boundary + 3*time.Second)
	if captured <= 0 || captured > 100e6/8 {
		t.Fatalf("post-reconfiguration bandwidth %v B/s, want captured in (0, 100 Mbit/s]", captured)
	}
	if resetAt == 0 || atReset != captured {
		t.Fatalf("max filter %v B/s on leaving PROBE_RTT at %v, want reset to the captured %v", atReset, resetAt, captured)
	}
	if got := l.bw.Get() * 8; math.Abs(got-60e6) > 0.05*60e6 || l.reconfiguring || l.mode != modeCruise {
		t.Errorf("3 s after the boundary max bw %.1f Mbit/s, reconfiguring %v, mode %d: want the new 60 ± 5%%, done, PROBE_BW",
			got/1e6, l.reconfiguring, l.mode)
	}
	if l.minRTT > 51*time.Millisecond {
		t.Errorf("min_rtt %v, want the new 50 ms (the old 100 ms would be kept 20 s)", l.minRTT)
	}
}

// TestDetectedOutage: without a schedule a 60 ms service outage (ACK gap
// > 45 ms) triggers one reconfiguration: PROBE_RTT within one RTT of the
// outage's end.
func TestDetectedOutage(t *testing.T) {
	p, l := newPath(t, testConfig(nil, nil), 100e6, 40*time.Millisecond)
	p.Outages = [][2]time.Duration{{8 * time.Second, 8060 * time.Millisecond}}
	log := modeLog(p, l)
	p.Run(10 * time.Second)
	var probe time.Duration
	for _, s := range *log {
		if s.m == modeProbeRTT && s.at > 7*time.Second {
			probe = s.at
			break
		}
	}
	if l.trig.count != 1 || probe < 8060*time.Millisecond || probe > 8060*time.Millisecond+40*time.Millisecond+time.Millisecond {
		t.Errorf("triggers %d, PROBE_RTT at %v: want 1 and within an RTT after the outage ends at 8.06 s (modes %v)", l.trig.count, probe, *log)
	}
}

// TestKalmanUnderFluctuation: when the base RTT alternates between 40 and
// 75 ms every 200 ms, the Kalman RTT exceeds min_rtt + 10 ms about half
// the time (the 75 ms half): LeoCC then paces on the Kalman bandwidth
// (within 10% of the 50 Mbit/s bottleneck) and probes with UP gain 1.05.
// On a steady path only its own probing queue can lift the RTT 10 ms,
// during at most the UP phase, one of eight: below 1/8 of the ACKs.
func TestKalmanUnderFluctuation(t *testing.T) {
	for _, fluct := range []bool{false, true} {
		p, l := newPath(t, testConfig(nil, nil), 50e6, 40*time.Millisecond)
		if fluct {
			p.RTT = func(t time.Duration) time.Duration {
				if (t/(200*time.Millisecond))%2 == 1 {
					return 75 * time.Millisecond
				}
				return 40 * time.Millisecond
			}
		}
		var kalmanACKs, acks int
		var upGains []float64
		p.Observe = func(time.Duration, *cc.RateSample) {
			acks++
			if l.useKalman {
				kalmanACKs++
			}
			if l.mode == modeCruise && l.cycleIdx == 0 && len(upGains) < 100 {
				upGains = append(upGains, l.pacingGain)
			}
		}
		p.Run(15 * time.Second)
		t.Logf("fluctuating %v: Kalman bw on %d of %d ACKs", fluct, kalmanACKs, acks)
		if !fluct {
			if kalmanACKs > acks/8 || upGains[0] != upGain {
				t.Errorf("steady path: %d of %d ACKs on the Kalman bw, first UP gain %v: want < 1/8 and 1.25", kalmanACKs, acks, upGains[0])
			}
			continue
		}
		if kalmanACKs < 2*acks/5 {
			t.Errorf("fluctuating path: Kalman bw on %d of %d ACKs, want ≥ 40%%", kalmanACKs, acks)
		}
		if !containsGain(upGains, upGainFluct) {
			t.Errorf("fluctuating path: UP gains %v, want 1.05 used", upGains)
		}
		if got := l.kalBw.x * 8; math.Abs(got-50e6) > 0.1*50e6 {
			t.Errorf("Kalman bw %.1f Mbit/s, want 50 ± 10%%", got/1e6)
		}
	}
}

func containsGain(gs []float64, g float64) bool {
	for _, v := range gs {
		if v == g {
			return true
		}
	}
	return false
}

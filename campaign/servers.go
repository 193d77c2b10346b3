package campaign

import (
	"slices"
	"time"

	"github.com/leolab/leolab/profile"
)

// datasetBaselineBps is the network baseline of the burstable AWS EC2
// instances (t3.micro and t4g.micro: 0.064 Gbit/s, EC2 instance network
// bandwidth tables) that two of the dataset's servers ran on once their
// burst credits were spent. The real 5-run means of the cells in
// DatasetServerLimits sit at 60.1–68.8 Mbit/s of payload, whatever the CCA
// and at 160 ms (Mumbai) as at 390 ms (São Paulo): a rate, not a window.
const datasetBaselineBps = 64e6

// ServerLimit is how the real dataset's server limited the flow of one
// cell: the rate at which that host put the packets on the wire with the
// burst credit it had at the start of a run, or its send buffer.
type ServerLimit struct {
	Kind, Direction, City, CCA string // campaign names; CCA by dataset name
	RateBps                    float64
	// Idle is how long the host sat idle before each run (the spacing of
	// the block's five runs less their 300 s), during which its credit
	// grew at RateBps: an EC2 instance earns network credit while it
	// sends below its baseline.
	Idle time.Duration
	// SndBuf is the host's send buffer ceiling in bytes (tcp_wmem[2]),
	// 0: the simulator's default.
	SndBuf int64
}

// BurstBytes is the credit a run starts with: RateBps over Idle.
func (l ServerLimit) BurstBytes() int64 {
	return int64(l.RateBps / 8 * l.Idle.Seconds())
}

// DatasetServerLimits lists the cells of the seed-000 dataset whose server
// limited the flow, so that the simulated experiment runs the same server
// as the real one: five cells held to an instance's network baseline
// (datasetBaselineBps) and the bbr2 cells' default 4 MiB send buffer. The
// evidence is in the raw iperf3 logs (MPTCP-FreeBSD/tcp-cc-starlink): in
// each city the seven CCAs other than bbr2 ran on one xanmod host, one
// CCA's five runs after another.
//   - Mumbai (172.31.3.249): bbr ran first, after the host had been idle,
//     at 155–200 Mbit/s in all five runs. bbr1, leocc and pcc followed;
//     bbr1's and leocc's first runs start at 110–290 Mbit/s for 7–10 s and
//     then hold 64 Mbit/s (iperf3's seconds alternate 44 and 89 Mbit/s,
//     the application's writes, averaging 64) for the rest of the run; the
//     5-run means are bbr1 67.8, leocc 63.9, pcc 63.8 Mbit/s, where the same
//     CCAs on the London and Ohio hosts get 164–179 (bbr1, leocc) and 84–86
//     (pcc) at longer RTTs.
//   - São Paulo (172.31.34.92): bbr ran first (110–128 Mbit/s, all runs),
//     then bbr1, whose runs 1–3 got 87–120 and runs 4–5 66.8 and 65.7: the
//     credit ran out during bbr1's block. leocc (65.1–80.7) and pcc
//     (58.0–62.0) came after it. bbr1 São Paulo is left unlimited: its mean
//     (90.8) is as much the credit's as the baseline's.
//
// Each run starts with the credit the ~15–22 s between two runs earned
// (ServerLimit.Idle, from the logs' start times), which it spends at the
// path's pace: Mumbai leocc's run 1 sent 204–230 Mbit/s for 6 s, 8.3 k of
// its 9.7 k retransmissions falling there, before it held the baseline.
//
// The CCAs that ran later (cubic, hybla, vegas, after an hour idle) are
// below the baseline in the mean and are left unlimited: their slow starts
// reach 100–160 Mbit/s on the credit the idle hour gave back. The burst
// credit of the hours before a block is not modelled, and a city without
// such evidence (Tokyo, held out) gets no limit.
func DatasetServerLimits() []ServerLimit {
	var out []ServerLimit
	// Start times of runs 1 and 5 (UTC, the logs' "timestamp"), 2026.
	for _, c := range []struct {
		city, cca  string
		run1, run5 string
	}{
		{"mumbai", "bbr1", "04:05:39", "04:26:38"},    // 1 Apr
		{"mumbai", "leocc", "04:58:02", "05:19:01"},   // 1 Apr
		{"mumbai", "pcc", "05:50:25", "06:11:29"},     // 1 Apr
		{"saopaulo", "leocc", "21:49:39", "22:11:06"}, // 31 Mar
		{"saopaulo", "pcc", "22:43:11", "23:04:38"},   // 31 Mar
	} {
		t1, _ := time.Parse(time.TimeOnly, c.run1)
		t5, _ := time.Parse(time.TimeOnly, c.run5)
		idle := t5.Sub(t1)/4 - datasetRunLength
		out = append(out, ServerLimit{Kind: Dedicated, Direction: "downlink", City: c.city, CCA: c.cca,
			RateBps: datasetBaselineBps, Idle: idle})
	}
	// bbr2 ran a week later from one host per city with Linux 5.13.12 and
	// its default sysctls: every bbr2 log reports sndbuf_actual 16384, the
	// default tcp_wmem[1] (the xanmod hosts report 65536), so its send
	// buffer autotuned up to the default tcp_wmem[2] of 4 MiB.
	for _, city := range []string{"london", "mumbai", "ohio", "saopaulo", "sydney"} {
		out = append(out, ServerLimit{Kind: Dedicated, Direction: "downlink", City: city, CCA: "bbr2", SndBuf: linuxDefaultWmemMax})
	}
	return out
}

// linuxDefaultWmemMax is Linux's default tcp_wmem[2] (4 MiB,
// Documentation/networking/ip-sysctl.rst).
const linuxDefaultWmemMax = 4 << 20

// datasetRunLength is each iperf3 run's length (-t 300).
const datasetRunLength = 300 * time.Second

// datasetServerLimit returns the server's limit for one flow of a run (the
// zero ServerLimit: none), by the CCA's dataset name.
func datasetServerLimit(r *Run, cca string) ServerLimit {
	all := DatasetServerLimits()
	i := slices.IndexFunc(all, func(l ServerLimit) bool {
		return l.Kind == r.Kind && l.Direction == r.Direction && l.City == r.City && l.CCA == cca
	})
	if i < 0 {
		return ServerLimit{}
	}
	return all[i]
}

// DatasetRwnd is the largest window the dataset's receiver advertised in
// one direction, the ceiling of its autotuned receive window, in bytes:
// iperf3's per-second snd_wnd (the peer's window as the sender saw it)
// tops out at one value per direction in every log read, whatever the CCA
// or city, where the simulator's default ceiling is 16 MiB.
//   - downlink, the client in Melbourne (a laptop on xanmod 6.19,
//     start.system_info of the uplink logs): 11,860,480–11,862,016 bytes
//     (the Sydney bbr run 1 trace; São Paulo hybla and Mumbai bbr1
//     concurrent runs 2 and 4; London hybla and cubic dedicated runs 1–2);
//   - uplink, the AWS servers: 4,783,104–4,784,128 bytes (the Sydney bbr
//     run 1 trace; London cubic and São Paulo hybla dedicated run 1, whose
//     95 MB Hybla window the server's 4.78 MB held from its 14th second).
func DatasetRwnd(direction string) int64 {
	if direction == "uplink" {
		return 4784128
	}
	return 11862016
}

// limitServers runs each flow of a run between the dataset's hosts as they
// were (DatasetServers): the egress limit of the server in its cell, the
// receive-window ceiling of the receiver in its direction, and what the
// hosts ran under the CCA's name (DatasetCCA.Hosts).
func (c *Campaign) limitServers(flows []map[string]any, r *Run) {
	if !c.DatasetServers { // Validate refuses it with template.flows
		return
	}
	for i, name := range r.CCAs {
		flows[i]["rwnd"] = DatasetRwnd(r.Direction)
		if h := hostsName(name); h != "" {
			flows[i]["cca"] = h
		}
		l := datasetServerLimit(r, name)
		if l.RateBps > 0 {
			flows[i]["max_rate"] = profile.FormatRate(l.RateBps)
			flows[i]["max_rate_burst"] = l.BurstBytes()
		}
		if l.SndBuf > 0 {
			flows[i]["sndbuf"] = l.SndBuf
		}
	}
}

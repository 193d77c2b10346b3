package iperf

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// Summary is one row of the dataset's end-summary CSVs (run1_summary.csv,
// runs2to5_sydney_downlink_summary.csv): the end block of one iperf3 log.
type Summary struct {
	Scenario    string // e.g. "downlink-sequential-logs"
	Direction   string // "downlink" or "uplink", from Scenario
	Concurrent  bool   // Scenario is a competitive (nine-flow) run
	City        string
	CCA         string
	Run         int
	Seconds     float64 // end.streams[0].sender.seconds
	SenderBytes int64
	SenderBps   float64
	Retransmits int64
	MaxSndCwnd  int64
	MinRTT      time.Duration
	MeanRTT     time.Duration
	MaxRTT      time.Duration
	RecvBytes   int64
	RecvBps     float64
	SenderCC    string
	Note        string
	Warnings    []Warning
}

// summaryColumns are the columns ReadSummary requires.
var summaryColumns = []string{"scenario", "city", "cca", "run", "seconds", "sender_bytes",
	"sender_bps", "retransmits", "max_snd_cwnd", "min_rtt_us", "mean_rtt_us", "max_rtt_us"}

// ReadSummaryFile reads an end-summary CSV.
func ReadSummaryFile(path string) ([]Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("iperf: %w", err)
	}
	defer f.Close()
	return ReadSummary(path, f)
}

// ReadSummary reads an end-summary CSV with a header row; columns are found
// by name. Implausible values are kept and reported in the row's Warnings.
func ReadSummary(name string, rd io.Reader) ([]Summary, error) {
	cr := csv.NewReader(rd)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("iperf %s:1: header: %w", name, err)
	}
	cols := columns(header)
	for _, c := range summaryColumns {
		if _, ok := cols[c]; !ok {
			return nil, fmt.Errorf("iperf %s:1: header lacks column %q", name, c)
		}
	}
	var out []Summary
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("iperf %s: %w", name, err)
		}
		s, err := summaryRow(cols, rec)
		if err != nil {
			return nil, fmt.Errorf("iperf %s:%d: %w", name, line, err)
		}
		out = append(out, s)
	}
}

func summaryRow(cols map[string]int, rec []string) (Summary, error) {
	var firstErr error
	str := func(c string) string {
		if i, ok := cols[c]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	num := func(c string) float64 {
		v, err := strconv.ParseFloat(str(c), 64)
		if err != nil && firstErr == nil && str(c) != "" {
			firstErr = fmt.Errorf("column %s: %w", c, err)
		}
		return v
	}
	s := Summary{
		Scenario: str("scenario"), City: str("city"), CCA: str("cca"), Run: int(num("run")),
		Seconds: num("seconds"), SenderBytes: int64(num("sender_bytes")), SenderBps: num("sender_bps"),
		Retransmits: int64(num("retransmits")), MaxSndCwnd: int64(num("max_snd_cwnd")),
		MinRTT: micros(num("min_rtt_us")), MeanRTT: micros(num("mean_rtt_us")),
		MaxRTT: micros(num("max_rtt_us")), RecvBytes: int64(num("recv_bytes")),
		RecvBps: num("recv_bps"), SenderCC: str("sender_tcp_congestion"), Note: str("note"),
	}
	s.Direction, _, _ = strings.Cut(s.Scenario, "-")
	s.Concurrent = strings.Contains(s.Scenario, "competitive")
	var r Run
	r.checkTCP("max_snd_cwnd", "max_rtt_us", s.MaxSndCwnd, s.MaxRTT)
	s.Warnings = r.Warnings
	return s, firstErr
}

package iperf

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReadSummaryReal(t *testing.T) {
	dir := dataDir(t)
	rows, err := ReadSummaryFile(filepath.Join(dir, "run1_summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// 4 scenarios x 5 cities (Tokyo held back) x 9 CCAs.
	if len(rows) != 180 {
		t.Fatalf("%d rows, want 180", len(rows))
	}
	absurd, dirs := 0, map[string]int{}
	for _, s := range rows {
		dirs[s.Direction]++
		if len(s.Warnings) > 0 {
			absurd++
			if s.City != "Sydney" || s.CCA != "pcc" || s.MaxSndCwnd < 5e12 {
				t.Errorf("unexpected warning on %s/%s/%s: %v", s.Scenario, s.City, s.CCA, s.Warnings)
			}
		}
		// sender_bps is bytes over the sender's seconds, to float precision.
		if s.Seconds > 0 && s.SenderBytes > 0 {
			if got := float64(s.SenderBytes) * 8 / s.Seconds; got/s.SenderBps-1 > 1e-9 || s.SenderBps/got-1 > 1e-9 {
				t.Errorf("%s/%s/%s: bps %g vs bytes/seconds %g", s.Scenario, s.City, s.CCA, s.SenderBps, got)
			}
		}
	}
	// The two Sydney downlink PCC runs carry max_snd_cwnd ~6e12.
	if absurd != 2 || dirs["downlink"] != 90 || dirs["uplink"] != 90 {
		t.Errorf("%d rows with warnings (want 2), directions %v", absurd, dirs)
	}
	first := rows[0]
	if first.City != "London" || first.CCA != "bbr" || first.SenderBytes != 5305925632 ||
		first.MeanRTT != 274033*time.Microsecond || first.Concurrent {
		t.Errorf("first row %+v", first)
	}
	more, err := ReadSummaryFile(filepath.Join(dir, "runs2to5_sydney_downlink_summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(more) != 36 || more[0].Run != 2 {
		t.Errorf("runs2to5: %d rows, first run %d", len(more), more[0].Run)
	}
}

func TestReadSummaryErrors(t *testing.T) {
	if _, err := ReadSummary("x", strings.NewReader("scenario,city\n")); err == nil ||
		!strings.Contains(err.Error(), "x:1: header lacks column \"cca\"") {
		t.Errorf("missing column: %v", err)
	}
	hdr := strings.Join(summaryColumns, ",") + "\n"
	row := "downlink-competitive-logs,Ohio,bbr,1,300,abc,1,0,0,1,2,3\n"
	if _, err := ReadSummary("y", strings.NewReader(hdr+row)); err == nil ||
		!strings.Contains(err.Error(), "y:2: column sender_bytes") {
		t.Errorf("bad number: %v", err)
	}
}

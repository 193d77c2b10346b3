package campaign

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgressPlain(t *testing.T) {
	var buf bytes.Buffer
	pp := NewProgressPrinter(&buf, false)
	p := Progress{Total: 100, Skipped: 10}
	for i := 1; i <= 90; i++ {
		p.Done = i
		p.Elapsed = time.Duration(i) * time.Second
		p.ETA = time.Duration(90-i) * time.Second
		if i == 40 {
			p.Done--
			p.Failed = 1
			p.Last = "dedicated-x-s1: boom"
		}
		pp.Print(p)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	// 90 s of progress at one line per 15 s, plus the failure (2 lines) and the end.
	if len(lines) < 6 || len(lines) > 10 {
		t.Fatalf("%d lines:\n%s", len(lines), buf.String())
	}
	if !strings.Contains(buf.String(), "failed: dedicated-x-s1: boom") {
		t.Fatalf("failure not shown:\n%s", buf.String())
	}
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "runs 90/90 (+10 stored before) 100%, 1 failed") || strings.Contains(last, "ETA") {
		t.Fatalf("last line %q", last)
	}
	if !strings.Contains(lines[1], "ETA") {
		t.Fatalf("no ETA in %q", lines[1])
	}
}

func TestProgressTerminal(t *testing.T) {
	var buf bytes.Buffer
	pp := NewProgressPrinter(&buf, true)
	pp.Print(Progress{Total: 2, Done: 1, Elapsed: time.Second, ETA: time.Second})
	pp.Print(Progress{Total: 2, Done: 2, Elapsed: 2 * time.Second})
	out := buf.String()
	if strings.Count(out, "\r") != 2 || !strings.HasSuffix(out, "\n") || !strings.Contains(out, "runs 1/2  50%") {
		t.Fatalf("terminal output %q", out)
	}
}

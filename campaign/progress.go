package campaign

import (
	"fmt"
	"io"
	"time"
)

// plainEvery is how often a progress line is written when the output is not
// a terminal (a log file, CI): often enough to see it move, rarely enough
// that a 2,000-run campaign does not flood the log.
const plainEvery = 15 * time.Second

// ProgressPrinter renders Progress on a writer: one line rewritten in place
// on a terminal, plain lines (at most one per plainEvery, plus failures and
// the end) otherwise.
type ProgressPrinter struct {
	w        io.Writer
	terminal bool
	last     time.Duration // Elapsed at the last plain line
	failed   int
	printed  bool
}

// NewProgressPrinter returns a printer writing to w; terminal selects the
// in-place display.
func NewProgressPrinter(w io.Writer, terminal bool) *ProgressPrinter {
	return &ProgressPrinter{w: w, terminal: terminal, last: -plainEvery}
}

// Print shows p.
func (pp *ProgressPrinter) Print(p Progress) {
	finished := p.Remaining() == 0
	line := progressLine(p)
	if pp.terminal {
		fmt.Fprintf(pp.w, "\r%s\x1b[K", line)
		if p.Failed > pp.failed {
			fmt.Fprintf(pp.w, "\n  failed: %s\n", p.Last)
		}
		if finished {
			fmt.Fprintln(pp.w)
		}
		pp.failed = p.Failed
		return
	}
	failedNow := p.Failed > pp.failed
	pp.failed = p.Failed
	if !failedNow && !finished && p.Elapsed-pp.last < plainEvery && pp.printed {
		return
	}
	pp.last, pp.printed = p.Elapsed, true
	fmt.Fprintln(pp.w, line)
	if failedNow {
		fmt.Fprintf(pp.w, "  failed: %s\n", p.Last)
	}
}

// progressLine is e.g. "runs 12/120 (+30 stored before), 1 failed, 5m2s elapsed, ETA 41m0s".
func progressLine(p Progress) string {
	todo := p.Total - p.Skipped
	s := fmt.Sprintf("runs %d/%d", p.Done+p.Failed, todo)
	if p.Skipped > 0 {
		s += fmt.Sprintf(" (+%d stored before)", p.Skipped)
	}
	if todo > 0 {
		s += fmt.Sprintf(" %3.0f%%", 100*float64(p.Done+p.Failed)/float64(todo))
	}
	s += fmt.Sprintf(", %d failed, %v elapsed", p.Failed, p.Elapsed.Round(time.Second))
	if p.Remaining() > 0 && p.ETA > 0 {
		s += fmt.Sprintf(", ETA %v", p.ETA.Round(time.Second))
	}
	return s
}

package cc_test

import (
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

type plain struct{}

func (plain) OnSend(time.Duration, cc.SentInfo)   {}
func (plain) OnAck(time.Duration, *cc.RateSample) {}
func (plain) OnRTO(time.Duration)                 {}
func (plain) CWnd() int                           { return 0 }
func (plain) PacingRate() float64                 { return 0 }
func (plain) Inspect() map[string]float64         { return nil }

type marking struct{ plain }

func (marking) MarkAppLimited() bool { return true }

type wrap struct{ cc.Controller }

func (w wrap) Unwrap() cc.Controller { return w.Controller }

// MarkerOf finds the extension through any number of wrappers and
// reports nil for a controller without it.
func TestMarkerOf(t *testing.T) {
	if m := cc.MarkerOf(wrap{wrap{marking{}}}); m == nil || !m.MarkAppLimited() {
		t.Errorf("marker behind two wrappers not found: %v", m)
	}
	if m := cc.MarkerOf(wrap{plain{}}); m != nil {
		t.Errorf("plain controller reported a marker %v", m)
	}
	if m := cc.MarkerOf(nil); m != nil {
		t.Errorf("nil controller reported a marker %v", m)
	}
}

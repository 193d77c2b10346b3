package fixed

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/cc"
)

// DefaultSegments is the window when Params has no "cwnd": RFC 6928's
// initial window of 10 segments, which the dataset's ccp runs kept
// (doc.go).
const DefaultSegments = 10

// maxSegments bounds the "cwnd" parameter: 65535 segments (~95 MB) is
// far above the transport's 16 MiB send buffer (transport.DefaultSndBuf),
// so a larger value could never be in flight.
const maxSegments = 65535

var _ cc.Inspector = (*Fixed)(nil)

func init() {
	cc.Register(cc.Info{
		Name:        "fixed",
		Description: "constant congestion window (default 10 segments): no growth, no back-off; the seed-000 dataset's broken ccp deployment",
		Source:      "RFC 6928 initial window; the dataset's ccp end summaries (rate × RTT = 10 segments)",
		Params:      map[string]float64{"cwnd": DefaultSegments},
		New: func(cfg cc.Config) (cc.Controller, error) {
			return New(cfg)
		},
	})
}

// Fixed is one flow's constant window.
type Fixed struct {
	cwnd int // bytes
}

// New builds a Fixed controller of cfg.Params["cwnd"] segments.
func New(cfg cc.Config) (*Fixed, error) {
	if cfg.MSS <= 0 {
		return nil, fmt.Errorf("fixed: MSS %d must be positive", cfg.MSS)
	}
	n := cfg.Param("cwnd", DefaultSegments)
	if n < 2 || n > maxSegments || n != float64(int(n)) {
		return nil, fmt.Errorf("congestion control fixed: parameter cwnd %g: must be a whole number of segments in [2, %d]", n, maxSegments)
	}
	return &Fixed{cwnd: int(n) * cfg.MSS}, nil
}

func (f *Fixed) OnSend(time.Duration, cc.SentInfo)   {}
func (f *Fixed) OnAck(time.Duration, *cc.RateSample) {}

// OnRTO keeps the window: the CCP datapath sets cwnd only when its agent
// says so, and the dataset's agent never did.
func (f *Fixed) OnRTO(time.Duration) {}

func (f *Fixed) CWnd() int           { return f.cwnd }
func (f *Fixed) PacingRate() float64 { return 0 }

// Inspect reports the window in bytes.
func (f *Fixed) Inspect() map[string]float64 {
	return map[string]float64{"cwnd": float64(f.cwnd)}
}

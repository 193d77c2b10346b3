package probe

import (
	"encoding/json"
	"time"
)

// MarshalJSON writes the report with stable keys, times in seconds since
// the trace's epoch and durations in milliseconds (the result schema's
// units). The rate series is left out: it is as long as the trace.
func (r *Report) MarshalJSON() ([]byte, error) {
	type outage struct {
		StartS   float64 `json:"start_s"`
		EndS     float64 `json:"end_s"`
		LengthMs float64 `json:"length_ms"`
		PeakMs   float64 `json:"peak_ms"`
		Held     int     `json:"held"`
		Lost     int     `json:"lost"`
	}
	type schedule struct {
		PeriodS    float64  `json:"period_s"`
		PhaseS     float64  `json:"phase_s"`
		UTCOffsetS *float64 `json:"utc_offset_s"` // null: epoch unknown
		OnGrid     int      `json:"on_grid"`
		OffGrid    int      `json:"off_grid"`
		ResidualMs float64  `json:"residual_ms"`
		MinuteSecs []int    `json:"utc_seconds,omitempty"`
	}
	type interval struct {
		StartS      float64 `json:"start_s"`
		EndS        float64 `json:"end_s"`
		Packets     int     `json:"packets"`
		Lost        int     `json:"lost"`
		MinOWDMs    float64 `json:"min_owd_ms"`
		MedianOWDMs float64 `json:"median_owd_ms"`
		P95OWDMs    float64 `json:"p95_owd_ms"`
		Mbps        float64 `json:"mbps,omitempty"`
	}
	type frame struct {
		PeriodMs      float64 `json:"period_ms"`
		Coherence     float64 `json:"coherence"`
		SendCoherence float64 `json:"send_coherence"`
	}
	type burst struct {
		Packets         int     `json:"packets"`
		Lost            int     `json:"lost"`
		Served          int     `json:"served_during"`
		Kept            int     `json:"kept"`
		NewestDelivered float64 `json:"newest_delivered"`
		Policy          string  `json:"policy"`
		QueueDelayMs    float64 `json:"queue_delay_ms"`
	}
	type ramp struct {
		InitialMbps float64 `json:"initial_mbps"`
		PeakMbps    float64 `json:"peak_mbps"`
		TimeMs      float64 `json:"time_ms"`
	}
	v := struct {
		Epoch       string     `json:"epoch_utc,omitempty"`
		Packets     int        `json:"packets"`
		Lost        int        `json:"lost"`
		LossRate    float64    `json:"loss_rate"`
		SpanS       float64    `json:"span_s"`
		SpacingMs   float64    `json:"spacing_ms"`
		SizeBytes   int        `json:"size_bytes,omitempty"`
		MinOWDMs    float64    `json:"min_owd_ms"`
		MedianOWDMs float64    `json:"median_owd_ms"`
		P95OWDMs    float64    `json:"p95_owd_ms"`
		P99OWDMs    float64    `json:"p99_owd_ms"`
		Outages     []outage   `json:"outages"`
		LostIn      int        `json:"lost_in_outages"`
		OutageMs    float64    `json:"outage_ms"`
		ShiftMs     float64    `json:"owd_shift_ms"`
		Schedule    *schedule  `json:"schedule"`
		Intervals   []interval `json:"intervals"`
		Frame       *frame     `json:"frame"`
		Ramp        *ramp      `json:"ramp"`
		Burst       *burst     `json:"burst"`
	}{
		Packets: r.Packets, Lost: r.Lost, LossRate: r.LossRate, SpanS: r.Span.Seconds(), SpacingMs: ms(r.Spacing),
		SizeBytes: r.Size, MinOWDMs: ms(r.MinOWD), MedianOWDMs: ms(r.MedianOWD), P95OWDMs: ms(r.P95OWD), P99OWDMs: ms(r.P99OWD),
		Outages: []outage{}, LostIn: r.LostInOutages, OutageMs: ms(r.OutageLength), ShiftMs: ms(r.Shift), Intervals: []interval{},
	}
	if !r.Epoch.IsZero() {
		v.Epoch = r.Epoch.UTC().Format(time.RFC3339Nano)
	}
	for _, o := range r.Outages {
		v.Outages = append(v.Outages, outage{o.Start.Seconds(), o.End.Seconds(), ms(o.Length()), ms(o.Peak), o.Held, o.Lost})
	}
	if s := r.Schedule; s != nil {
		j := &schedule{PeriodS: s.Period.Seconds(), PhaseS: s.Phase.Seconds(), OnGrid: s.OnGrid, OffGrid: s.Off,
			ResidualMs: ms(s.Residual), MinuteSecs: s.MinuteSeconds()}
		if s.UTCOffset >= 0 {
			u := s.UTCOffset.Seconds()
			j.UTCOffsetS = &u
		}
		v.Schedule = j
	}
	for _, iv := range r.Intervals {
		v.Intervals = append(v.Intervals, interval{iv.Start.Seconds(), iv.End.Seconds(), iv.Packets, iv.Lost,
			ms(iv.MinOWD), ms(iv.MedianOWD), ms(iv.P95OWD), iv.Mbps})
	}
	if f := r.Frame; f != nil {
		v.Frame = &frame{ms(f.Period), f.Coherence, f.SendCoherence}
	}
	if p := r.Ramp; p != nil {
		v.Ramp = &ramp{p.Initial, p.Peak, ms(p.Time)}
	}
	if b := r.Burst; b != nil {
		v.Burst = &burst{b.Packets, b.Lost, b.Served, b.Kept, b.NewestDelivered, b.Policy, ms(b.QueueDelay)}
	}
	return json.Marshal(v)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// MinuteSeconds lists the boundaries' whole seconds within the UTC minute
// (Starlink: 12, 27, 42, 57) when the epoch is known and the period
// divides a minute (within 1 %); nil otherwise.
func (s Schedule) MinuteSeconds() []int {
	if s.UTCOffset < 0 || s.Period <= 0 {
		return nil
	}
	n := float64(time.Minute) / float64(s.Period)
	if k := float64(int(n + 0.5)); k < 1 || n/k < 0.99 || n/k > 1.01 {
		return nil
	}
	var out []int
	for t := s.UTCOffset; t < time.Minute; t += s.Period {
		out = append(out, int((t+time.Second/2)/time.Second)%60)
	}
	return out
}

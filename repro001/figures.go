package repro001

import (
	"fmt"
	"image/color"
	"math"
	"time"

	"github.com/leolab/leolab/report"
)

// figureSpan is how much of the long probes a figure shows.
const figureSpan = 50.0 // s

// Series colours of the XY figures (Tableau 10, as package report's CCA
// palette): one per direction, and apart for the controls.
var (
	dirColor = map[string]color.Color{"downlink": color.RGBA{0x1f, 0x77, 0xb4, 0xff}, "uplink": color.RGBA{0xff, 0x7f, 0x0e, 0xff}}
	aqmColor = color.RGBA{0x2c, 0xa0, 0x2c, 0xff}
	ctlColor = color.RGBA{0x7f, 0x7f, 0x7f, 0xff}
)

// quantity finds a quantity of the variant by direction and name ("" if
// absent: the caption then says so).
func (vr *VariantResult) quantity(dir, name string) string {
	for _, q := range vr.Quantities {
		if q.Direction == dir && q.Name == name {
			return fmt.Sprintf("%.4g %s (profile %.4g)", q.Inferred, q.Unit, q.Profile)
		}
	}
	return "n/a"
}

// figureSections draws one figure per finding from the first variant.
func (st *Study) figureSections() ([]report.Section, error) {
	vr := st.Variants[0]
	var secs []report.Section
	for _, b := range []func(*VariantResult) (report.Section, error){queueFigure, allocFigures, aqmFigure, reconfigFigures, isolationFigures, popFigure} {
		s, err := b(vr)
		if err != nil {
			return nil, err
		}
		secs = append(secs, s)
	}
	return secs, nil
}

func queueFigure(vr *VariantResult) (report.Section, error) {
	var series []report.XYSeries
	for _, dir := range Directions {
		s := report.XYSeries{Name: dir + " (kept)", Points: true, Color: dirColor[dir]}
		for _, b := range vr.Queue.Bursts {
			if b.Direction == dir && (dir == "downlink" || !b.AQM) {
				s.X, s.Y = append(s.X, float64(b.Size)), append(s.Y, float64(b.Burst.Kept))
			}
		}
		series = append(series, s)
	}
	aqm := report.XYSeries{Name: "uplink, AQM on (kept)", Points: true, Color: aqmColor}
	for _, b := range vr.Queue.Bursts {
		if b.Direction == "uplink" && b.AQM {
			aqm.X, aqm.Y = append(aqm.X, float64(b.Size)), append(aqm.Y, float64(b.Burst.Kept))
		}
	}
	series = append(series, aqm, report.XYSeries{Name: "drop-tail control (kept)", Points: true, Color: ctlColor, X: []float64{1500}, Y: []float64{float64(vr.Queue.Control.Burst.Kept)}})
	f, err := report.XY("Queue: packets a line-rate burst left in the buffer", "packet size (bytes)", "packets kept", series, report.SeriesOptions{
		Refs: []report.RefLine{{Y: float64(vr.Profile.Downlink.Queue.LimitPackets), Label: "downlink limit (profile)"}, {Y: float64(vr.Profile.Uplink.Queue.LimitPackets), Label: "uplink limit (profile)"}}})
	if err != nil {
		return report.Section{}, err
	}
	f.Name = "queue-bursts"
	dl, ul := vr.Queue.Limit("downlink"), vr.Queue.Limit("uplink")
	var newestDL float64
	for _, b := range vr.Queue.Bursts {
		if b.Direction == "downlink" && b.Size == 1500 {
			newestDL = b.Burst.NewestDelivered
		}
	}
	f.Caption = fmt.Sprintf("Paper (findings 1–3): head drop on both directions, ~1500 packets DL and ~4000 UL, counted in packets. "+
		"Measured: head drop (%.0f %% of the newest kept packets arrived on the DL, the control drop-tail queue delivered %.0f %%), "+
		"DL %d and UL %d packets kept of 1500-byte bursts, the same count at 500 and 1000 bytes. With the uplink's AQM on, a burst keeps only %d: "+
		"the linear AQM drops every arrival beyond 1000 packets.", 100*newestDL, 100*vr.Queue.Control.Burst.NewestDelivered, dl, ul, int(aqm.Y[0]))
	return report.Section{Title: "Queue size and drop policy (findings 1–3)", Figures: []*report.Figure{f}}, nil
}

func allocFigures(vr *VariantResult) (report.Section, error) {
	var rs []report.Series
	for _, dir := range Directions {
		s := report.Series{Name: dir, Unit: "Mbit/s"}
		r := vr.Ramp[dir]
		t0 := r.Rate[0].T
		for _, p := range r.Rate {
			if x := (p.T - t0).Seconds(); x <= rampDuration.Seconds() {
				s.T, s.V = append(s.T, x), append(s.V, p.Mbps)
			}
		}
		rs = append(rs, s)
	}
	ramp, err := report.TimeSeries("Allocation ramp: delivered rate of an overloading probe", "delivered rate (5 ms bins)", rs, report.SeriesOptions{
		Refs: []report.RefLine{{Y: vr.Profile.Downlink.MaxRate() / 1e6, Label: "DL base × multiplier (profile)"}, {Y: vr.Profile.Uplink.MaxRate() / 1e6, Label: "UL base × multiplier (profile)"}}})
	if err != nil {
		return report.Section{}, err
	}
	ramp.Name = "allocation-ramp"
	ramp.Caption = fmt.Sprintf("Paper (findings 4–5): ~100 Mbit/s DL and ~30 Mbit/s UL at once, growing up to 3.4× (DL) and 2× (UL) over ~400 ms. "+
		"Measured: DL %s → %s, 90 %% in %s; UL %s → %s, 90 %% in %s.",
		vr.quantity("downlink", "base allocation (first 20 ms)"), vr.quantity("downlink", "ramped allocation (peak)"), vr.quantity("downlink", "time to 90 % of the peak"),
		vr.quantity("uplink", "base allocation (first 20 ms)"), vr.quantity("uplink", "ramped allocation (peak)"), vr.quantity("uplink", "time to 90 % of the peak"))
	var ds []report.XYSeries
	for _, dir := range Directions {
		d := vr.Decay[dir]
		pts := report.XYSeries{Name: dir + " (burst drain rate)", Key: dir, Points: true, Color: dirColor[dir]}
		for _, p := range d.Points {
			pts.X, pts.Y = append(pts.X, ms(p.Gap)), append(pts.Y, p.Mbps)
		}
		f := d.Fit
		end := math.Max(pts.X[len(pts.X)-1], ms(f.Hold+f.Time))
		fit := report.XYSeries{Name: dir + " (fit: hold, linear decay)", Key: dir, Color: dirColor[dir],
			X: []float64{0, ms(f.Hold), ms(f.Hold + f.Time), end}, Y: []float64{f.High, f.High, f.Base, f.Base}}
		ds = append(ds, pts, fit)
	}
	decay, err := report.XY("Allocation decay after demand stops", "time since the sender stopped (ms)", "allocation (Mbit/s)", ds, report.SeriesOptions{})
	if err != nil {
		return report.Section{}, err
	}
	decay.Name = "allocation-decay"
	decay.Caption = fmt.Sprintf("Paper (finding 6): the DL falls linearly to base within ~200 ms; the UL holds ~175 ms (longer with queue occupancy), then falls over ~200 ms. "+
		"Measured (one run per gap, a burst's drain rate read at its service): DL hold %s, decay %s; UL hold %s, decay %s. The DL's ~15 ms 'hold' is the allocator's 10 ms arrival average noticing the stop.",
		vr.quantity("downlink", "hold after demand stops"), vr.quantity("downlink", "linear decay to base"),
		vr.quantity("uplink", "hold after demand stops"), vr.quantity("uplink", "linear decay to base"))
	return report.Section{Title: "Demand-driven allocation: ramp and decay (findings 4–7)", Figures: []*report.Figure{ramp, decay}}, nil
}

func aqmFigure(vr *VariantResult) (report.Section, error) {
	var series []report.XYSeries
	for _, dir := range Directions {
		c := vr.AQM[dir].Curve
		s := report.XYSeries{Name: dir + " (measured)", Key: dir, Points: true, Color: dirColor[dir]}
		for _, b := range c.Bins {
			if b.Arrived >= 20 {
				s.X, s.Y = append(s.X, float64(b.Lo+b.Hi)/2), append(s.Y, b.Prob())
			}
		}
		series = append(series, s)
	}
	ul := vr.Profile.Uplink.AQM
	if ul.Mode == "linear" {
		to := float64(ul.MinPackets) + float64(ul.MaxPackets-ul.MinPackets)/ul.MaxProb
		series = append(series, report.XYSeries{Name: "uplink (profile: linear)", Key: "uplink", Color: dirColor["uplink"], X: []float64{float64(ul.MinPackets), to}, Y: []float64{0, 1}})
	}
	f, err := report.XY("AQM: drop probability against the queue a packet found", "queue at arrival (packets, counted from the packets)", "drop probability", series, report.SeriesOptions{})
	if err != nil {
		return report.Section{}, err
	}
	f.Name = "aqm-drop-curve"
	dl := vr.AQM["downlink"].Curve
	f.Caption = fmt.Sprintf("Paper (findings 8–11): the UL AQM keeps the queue far below a quarter of its 4000 packets, the drop rate rising ~linearly over 0–250 packets; "+
		"the DL AQM lets the queue approach ~1500 but drops already below 500, adaptively. Measured: UL slope %s; DL first drop at %d packets, largest queue %d. "+
		"The DL points mix several moments of an adaptive max_p (A-RED style), hence no single curve.",
		vr.quantity("uplink", "drop probability per queued packet (slope)"), dl.FirstDrop, dl.MaxQueue)
	return report.Section{Title: "Active queue management (findings 8–11)", Figures: []*report.Figure{f}}, nil
}

func reconfigFigures(vr *VariantResult) (report.Section, error) {
	var ls []report.Series
	var bounds []float64
	for _, dir := range Directions {
		rc := vr.Reconfig[dir]
		s := report.Series{Name: dir, Unit: "ms"}
		for i, t := range rc.T {
			if t <= figureSpan {
				s.T, s.V = append(s.T, t), append(s.V, rc.OWDms[i])
			}
		}
		ls = append(ls, s)
		if dir == "downlink" {
			sch := rc.Report.Schedule
			for b := sch.Phase; b.Seconds() <= figureSpan; b += sch.Period {
				bounds = append(bounds, b.Seconds())
			}
		}
	}
	owd, err := report.TimeSeries("Reconfigurations: one-way delay of a light probe", "one-way delay (gaps: lost)", ls, report.SeriesOptions{Boundaries: bounds, BoundaryLabel: "inferred boundary"})
	if err != nil {
		return report.Section{}, err
	}
	owd.Name = "reconfig-owd"
	sch := vr.Reconfig["downlink"].Report.Schedule
	owd.Caption = fmt.Sprintf("Paper (findings 13–16, 24): global reconfigurations every 15 s at :12/:27/:42/:57, outages of ~45 ms (DL) and ~68 ms (UL), a shift of the stable OWD between intervals; idle OWD 13 / 17 ms. "+
		"Measured: every %.3f s at %v of the minute; outages DL %s, UL %s; least OWD DL %s, UL %s.",
		sch.Period.Seconds(), sch.MinuteSeconds(), vr.quantity("downlink", "outage"), vr.quantity("uplink", "outage"),
		vr.quantity("downlink", "idle one-way delay (least)"), vr.quantity("uplink", "idle one-way delay (least)"))
	var rs []report.Series
	var sb []float64
	for _, dir := range Directions {
		sl := vr.Slots[dir]
		s := report.Series{Name: dir, Unit: "Mbit/s", T: sl.T, V: sl.Mbps}
		rs = append(rs, s)
		if dir == "downlink" {
			sb = sl.Boundaries
		}
	}
	rate, err := report.TimeSeries("Reconfigurations: delivered rate of an overloading probe", "delivered rate (20 ms bins)", rs, report.SeriesOptions{Boundaries: sb, BoundaryLabel: "boundary (light probe's schedule)"})
	if err != nil {
		return report.Section{}, err
	}
	rate.Name = "reconfig-rate"
	rate.Caption = fmt.Sprintf("Paper (findings 13, 15): each reconfiguration resets the allocation (~600 ms to regrow) and moves the stable rate (median change ~70 Mbit/s DL, ~26 UL). "+
		"Measured: regrowth to 90 %% DL %s, UL %s; median change DL %s, UL %s (few slots: see the tolerance).",
		vr.quantity("downlink", "regrowth after a reset to 90 % of the slot's rate"), vr.quantity("uplink", "regrowth after a reset to 90 % of the slot's rate"),
		vr.quantity("downlink", "median rate change between slots"), vr.quantity("uplink", "median rate change between slots"))
	return report.Section{Title: "Reconfigurations: outages, schedule, per-slot rate and OWD (findings 13–16, 24)", Figures: []*report.Figure{owd, rate}}, nil
}

func isolationFigures(vr *VariantResult) (report.Section, error) {
	var figs []*report.Figure
	for _, dir := range Directions {
		is := vr.Isolation[dir]
		f, err := report.TimeSeries("Flow isolation ("+dir+"): a mouse beside an elephant", "queueing delay (10 ms bins)", []report.Series{
			{Name: "mouse, 2 Mbit/s", Key: "mouse", Unit: "ms", T: is.T, V: is.MouseMs},
			{Name: fmt.Sprintf("elephant, %.0f Mbit/s from 0.5 s", is.ElephantMbps), Key: "elephant", Unit: "ms", T: is.T, V: is.ElephantMs},
		}, report.SeriesOptions{})
		if err != nil {
			return report.Section{}, err
		}
		f.Name = "isolation-" + dir
		i := is.Iso
		paper := map[string]string{"downlink": "the mouse keeps its delay, but its loss is coupled to the elephant's through the shared head-drop buffer (finding 18)",
			"uplink": "the mouse keeps its delay and, thanks to the per-flow AQM, its loss (finding 19)"}[dir]
		f.Caption = fmt.Sprintf("Paper (finding 17): flow-aware queuing isolates the one-way delay; %s. Measured over %v–%v: mouse queueing %.2f ms and loss %.2f %%, elephant %.1f ms and %.1f %%.",
			paper, isoFrom, isoTo, ms(i.Mouse.QueueDelay), 100*i.Mouse.LossRate, ms(i.Elephant.QueueDelay), 100*i.Elephant.LossRate)
		figs = append(figs, f)
	}
	return report.Section{Title: "Flow isolation and loss coupling (findings 17–19)", Figures: figs}, nil
}

func popFigure(vr *VariantResult) (report.Section, error) {
	p := vr.PoP
	s := report.XYSeries{Name: "excess queueing delay", Points: true, Color: dirColor["downlink"]}
	for i, r := range p.Runs {
		s.X, s.Y = append(s.X, r.OfferedMbps), append(s.Y, ms(p.Fit.Excess[i]))
	}
	opt := report.SeriesOptions{Refs: []report.RefLine{{Y: ms(10 * time.Millisecond), Label: "upstream-queue threshold (10 ms)"}}}
	if p.Fit.Threshold > 0 {
		opt.Boundaries, opt.BoundaryLabel = []float64{p.Fit.Threshold}, "inferred PoP threshold"
	}
	f, err := report.XY("PoP limiter: delay beyond what the satellite's buffer holds", "offered rate (Mbit/s)", "excess delay (ms)", []report.XYSeries{s}, opt)
	if err != nil {
		return report.Section{}, err
	}
	f.Name = "pop-limiter"
	f.Caption = fmt.Sprintf("Paper (finding 12): above ~500 Mbit/s offered, a PoP rate limiter adds an upstream buffer. Measured: each run's median queueing delay less the satellite buffer's "+
		"(%d packets, from the burst, at the delivered rate); the threshold %s, the upstream buffer at least %d packets (the profile's: %d, a model choice).",
		vr.Queue.Limit("downlink"), vr.quantity("downlink", "PoP limiter threshold (offered)"), p.Fit.Buffer, vr.Profile.PoP.LimitPackets)
	return report.Section{Title: "PoP rate limiter (finding 12)", Figures: []*report.Figure{f}}, nil
}

package emu

import (
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/netsim"
)

// timedLinks puts links that change with run time (netsim.LinkSpec.Timed:
// schedules, replayed paths) on the flows' time axis, startLead after the
// link clock's epoch, and hands the spec's schedule (a path's handovers)
// to the flows as the simulator does.
func timedLinks(rc *RunConfig, spec netsim.Spec) {
	shift := func(ls netsim.LinkSpec) StageFactory {
		if !ls.Timed {
			return ls.Build
		}
		return func(drop link.DropFunc) (link.Stage, error) {
			st, err := ls.Build(drop)
			if err != nil {
				return nil, err
			}
			return link.Shift{S: st, By: startLead}, nil
		}
	}
	if spec.Direction == Uplink {
		rc.Uplink, rc.Downlink = shift(spec.Forward), shift(spec.Reverse)
	} else {
		rc.Uplink, rc.Downlink = shift(spec.Reverse), shift(spec.Forward)
	}
	if spec.Schedule != nil {
		sched := spec.Schedule
		rc.Schedule = func(time.Time) cc.Schedule { return sched }
	}
}

package reno

import (
	"testing"

	"github.com/leolab/leolab/cc"
)

func TestEpisodes(t *testing.T) {
	type step struct {
		rto          bool
		acked        int
		newEp, inRec bool
		wantReduce   bool
		wantPhase    Phase
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"one reduction per episode", []step{
			{acked: 1, wantPhase: Open},
			{acked: 1, newEp: true, inRec: true, wantReduce: true, wantPhase: Recovery},
			{acked: 1, inRec: true, wantPhase: Recovery},
			{acked: 1, wantPhase: Open},
			{acked: 1, newEp: true, inRec: true, wantReduce: true, wantPhase: Recovery},
		}},
		{"RTO from open reduces", []step{
			{rto: true, wantReduce: true, wantPhase: Loss},
		}},
		{"RTO in fast recovery does not reduce again", []step{
			{acked: 1, newEp: true, inRec: true, wantReduce: true, wantPhase: Recovery},
			{rto: true, wantReduce: false, wantPhase: Loss},
		}},
		{"backed-off RTO without progress does not reduce", []step{
			{rto: true, wantReduce: true, wantPhase: Loss},
			{rto: true, wantReduce: false, wantPhase: Loss},
		}},
		{"RTO after progress in loss reduces", []step{
			{rto: true, wantReduce: true, wantPhase: Loss},
			{acked: 1, inRec: true, wantPhase: Loss},
			{rto: true, wantReduce: true, wantPhase: Loss},
		}},
		{"new episode during timeout repair is ignored", []step{
			{rto: true, wantReduce: true, wantPhase: Loss},
			{acked: 1, newEp: true, inRec: true, wantPhase: Loss},
			{acked: 1, wantPhase: Open},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e Episodes
			for i, s := range tt.steps {
				var got bool
				if s.rto {
					got = e.OnRTO()
				} else {
					got = e.OnAck(&cc.RateSample{AckedBytes: s.acked, NewLossEpisode: s.newEp, InRecovery: s.inRec})
				}
				if got != s.wantReduce || e.Phase() != s.wantPhase {
					t.Fatalf("step %d: reduce %v phase %d, want %v %d", i, got, e.Phase(), s.wantReduce, s.wantPhase)
				}
				if e.MayGrow() != (e.Phase() != Recovery) {
					t.Fatalf("step %d: MayGrow %v in phase %d", i, e.MayGrow(), e.Phase())
				}
			}
		})
	}
}

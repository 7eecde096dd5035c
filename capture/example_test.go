package capture_test

import (
	"fmt"
	"strings"

	"github.com/chronograph/chronograph/capture"
	"github.com/chronograph/chronograph/stats"
)

// A GPIO pin toggled around a piece of code, captured at 1 MHz by a logic
// analyzer (here a VCD as sigrok-cli writes one, inline): the widths of
// its high pulses are the code's run times, its rise-to-rise periods the
// loop's period, and the latency from an interrupt pin to the task pin is
// the scheduling latency.
func Example() {
	const vcd = `$version libsigrok 0.5.2 $end
$comment
  Acquisition with 2/8 channels at 1 MHz
$end
$timescale 1 us $end
$scope module libsigrok $end
$var wire 1 ! irq $end
$var wire 1 " task $end
$upscope $end
$enddefinitions $end
#0 0! 0"
#100 1!
#103 0! 1"
#145 0"
#300 1!
#302 0! 1"
#350 0"
#500 1!
#504 0! 1"
#547 0"
#600
`
	r, err := capture.NewReader(strings.NewReader(vcd), capture.VCD)
	if err != nil {
		fmt.Println(err)
		return
	}
	a, err := capture.Analyze(r, capture.Spec{
		Channels: []string{"task"},
		Between: []capture.Between{{
			From: capture.EdgeRef{Channel: "irq", Edge: capture.Rise},
			To:   capture.EdgeRef{Channel: "task", Edge: capture.Rise},
		}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	task := a.Channels[0]
	fmt.Println("resolution:", a.Resolution)
	fmt.Println("task high (ticks):", task.High.Values)
	fmt.Println("task period (ticks):", task.RisePeriods.Values)
	fmt.Println("irq to task (ticks):", a.Between[0].Ticks.Values)
	s := stats.Summarize(a.Tick.NanosecondsOf(task.High.Values))
	fmt.Printf("task run time: median %.0f ns over %d pulses\n", s.Median, s.N)
	// Output:
	// resolution: 1 us
	// task high (ticks): [42 48 43]
	// task period (ticks): [199 202]
	// irq to task (ticks): [3 2 4]
	// task run time: median 43000 ns over 3 pulses
}

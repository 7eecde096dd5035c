// Package capture reads logic-analyzer and simulator captures and
// measures the pulses in them: timing from the outside, with no cost to
// the measured CPU (toggle a GPIO pin around the code, capture the pin,
// read the widths), or from a simulation.
//
// # Reading
//
// Open reads three formats, told apart by their content:
//
//   - VCD, the IEEE 1364-2005 §18 value change dump, as sigrok-cli and
//     PulseView (-O vcd), Verilator, Icarus Verilog and GHDL write it:
//     $timescale (1, 10 or 100 s, ms, us, ns, ps or fs), nested $scope
//     (full names joined by dots), $var of one bit, vectors (b1010 id,
//     extended to the declared width) and reals (r1.5 id), the values 0,
//     1, x, z in either case (and U, W, -, L, H as VHDL tools write
//     them), $dumpvars, $dumpall, $dumpon, $dumpoff, comments, several
//     names for one identifier code, and the $date, $version and
//     $comment metadata; the sample rate of a VCD written by sigrok comes
//     from its comment.
//   - sigrok's CSV output (sigrok-cli -O csv, with or without its header,
//     labels, time column and trigger column); analog columns are
//     skipped.
//   - sigrok session files (.sr, version 1 and 2: zip, metadata, raw
//     logic chunks); analog channels are skipped.
//
// A Reader streams: it holds one line (CSV), one word (VCD) or one sample
// (.sr) at a time, so a 1 GB capture reads in constant memory, and Next
// returns one value change at a time, in time order. Times are integer
// ticks of Info.Tick, a Resolution kept exactly (Num/Den seconds: a
// 3 MHz capture has ticks of 1/3000000 s); Info.Resolution is the finest
// step the capture can show, which the digits rule of a printed figure
// uses. A bad capture gives one error, "capture: line N: what is wrong"
// (or the member of a session file), and never a panic.
//
// # Measuring
//
// Analyze reads a capture to its end and gives, per channel, the widths
// of its high and low pulses, the periods between rising and between
// falling edges, the duty cycle of each period, its glitches, and the
// latencies between edges of two channels (Between: an interrupt pin to
// its task pin). Every figure is a raw sample in ticks, ready for
// stats.Summarize after Resolution.NanosecondsOf. Pulses documents what
// counts as a pulse: an unknown level (x, z) or the capture's ends cut a
// pulse and leave it without a width, counted; a pulse shorter than
// Spec.MinWidth is a glitch, reported apart and joined with its
// neighbours. A vector's pulses are its nonzero stretches (the reduction
// OR of its bits); one bit is named "bus[3]".
//
// # What it does not do
//
// It does not decode protocols (UART, SPI, I²C: sigrok's decoders do
// that), read analog samples, read extended VCD ($dumpports, IEEE 1364
// §18.4), FST, LXT or Saleae's own formats, nor talk to a logic analyzer:
// capture with sigrok-cli or PulseView, then read the file. It keeps the
// figures of the channels measured, not the capture: every value (8 bytes
// each), or with Spec.Keep at most Keep values per figure and bins beyond
// (Sample says what stays exact): a capture of any length is analysed in
// bounded memory.
//
// The package imports only the standard library (and warn).
package capture

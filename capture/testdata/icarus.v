// icarus.v: the testbench of testdata/icarus.vcd (Icarus Verilog 11:
// iverilog -o /tmp/tb icarus.v && vvp /tmp/tb). The expected pulses are in
// TestIcarus (simulators_test.go), reasoned from this source.
`timescale 1ns/1ns
module tb;
  reg clk;
  reg irq, task_pin;
  reg [3:0] count;
  wire busy = |count;
  initial begin
    $dumpfile("icarus.vcd");
    $dumpvars(0, tb);
    irq = 0;
    task_pin = 0;
    #3 clk = 0;
    count = 0;
    repeat (5) begin
      #5 clk = 1;
      #5 clk = 0;
    end
  end
  initial begin
    #10 irq = 1;
    #2 irq = 0;
    #5 task_pin = 1;
    #7 task_pin = 0;
    #6 irq = 1;
    #1 irq = 0;
    #3 task_pin = 1;
    #4 task_pin = 0;
  end
  initial begin
    #8 count = 5;
    #10 count = 4'bx010;
    #10 count = 0;
    #5 count = 4'bz000;
    #5 count = 0;
  end
  initial #60 $finish;
endmodule

-- ghdl.vhd: the testbench of testdata/ghdl.vcd (GHDL 2.0: ghdl -a ghdl.vhd
-- && ghdl -e tb && ghdl -r tb --vcd=ghdl.vcd --stop-time=60ns). The
-- expected pulses are in TestGHDL (simulators_test.go), reasoned from this
-- source.
library ieee;
use ieee.std_logic_1164.all;

entity tb is
end tb;

architecture sim of tb is
  signal clk  : std_logic;                    -- 'U' until 3 ns
  signal pin  : std_logic := '0';
  signal bus4 : std_logic_vector(3 downto 0); -- "UUUU" until 3 ns
begin
  process
  begin
    wait for 3 ns;
    clk <= '0';
    for i in 1 to 5 loop
      wait for 5 ns;
      clk <= '1';
      wait for 5 ns;
      clk <= '0';
    end loop;
    wait;
  end process;

  process
  begin
    wait for 10 ns;
    pin <= 'H';
    wait for 4 ns;
    pin <= 'L';
    wait for 6 ns;
    pin <= '1';
    wait for 3 ns;
    pin <= '-';
    wait for 2 ns;
    pin <= '0';
    wait for 10 ns;
    pin <= 'Z';
    wait for 5 ns;
    pin <= '0';
    wait;
  end process;

  process
  begin
    wait for 3 ns;
    bus4 <= "0000";
    wait for 5 ns;
    bus4 <= "0101";
    wait for 10 ns;
    bus4 <= "W010";
    wait for 10 ns;
    bus4 <= "0000";
    wait;
  end process;
end sim;

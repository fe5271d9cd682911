from mazekit.cli import main

main(prog_name="mazekit")

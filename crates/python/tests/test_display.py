"""A race in a notebook: its table, the trajectory chart `packlab run --out` draws, its link."""

import packlab


def test_svg_is_the_cli_trajectory_chart(cli, tmp_path):
    race = packlab.run("pgrr-a1", policy="vqs,bf-js", seed=3, horizon=20000)
    cli("run", "--preset", "pgrr-a1", "--policy", "vqs,bf-js", "--seed", "3", "--horizon", "20000",
        "--out", str(tmp_path))
    assert race.svg() == (tmp_path / "pgrr-a1-trajectory.svg").read_text()


def test_html_shows_the_table_chart_and_link(cli):
    race = packlab.run("msfq-d1", policy="msf,fcfs", seed=2, horizon=5000)
    html = race._repr_html_()
    text = cli("run", "--preset", "msfq-d1", "--policy", "msf,fcfs", "--seed", "2", "--horizon", "5000")
    # Every row of the CLI's table, cell by cell.
    for line in race.table().splitlines()[1:]:
        assert line in text
    assert "<svg" in html and "</svg>" in html
    assert race.link.replace("&", "&amp;") in html
    assert html.count("<tr>") == 1 + len(race.reports)

//! Drawing: what the model and the app state look like on the screen.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Clear, Paragraph, Row, Table, TableState, Wrap};

use super::App;
use super::model::Pane;

const HELP: &[&str] = &[
    "tab / h l / ← →   next / previous pane (sessions, calls, feeds)",
    "j k / ↓ ↑         move",
    "enter             sessions: its calls · calls: the call's output · feeds: read the item",
    "c                 cancel the selected running call (y confirms)",
    "in a text: / search, n next match, y copy (OSC 52), space / PgUp page, g top, esc back",
    "in an article: f fetch the full text",
    "r                 reload the feeds",
    "q                 quit      ? this help",
    "",
    "lights: [G] joined (green)  [Y] on the way (yellow)  [R] no connection (red)",
];

fn colour(name: &str) -> Color {
    match name {
        "green" => Color::Green,
        "yellow" => Color::Yellow,
        _ => Color::Red,
    }
}

fn block(title: &str, focused: bool) -> Block<'_> {
    let b = Block::default().borders(Borders::ALL).title(title);
    if focused {
        b.border_style(Style::default().add_modifier(Modifier::BOLD))
            .title_style(Style::default().add_modifier(Modifier::REVERSED))
    } else {
        b
    }
}

/// Draws the whole screen.
pub fn draw(f: &mut Frame<'_>, app: &App) {
    let [top, body, bottom] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
    ])
    .areas(f.area());
    let pane = match app.pane {
        Pane::Sessions => "sessions",
        Pane::Calls => "calls",
        Pane::Feeds => "feeds",
    };
    f.render_widget(
        Paragraph::new(format!(
            "paw console · {} · {} · pane: {pane} · ? help · q quit · workers {}",
            if app.connected {
                "connected"
            } else {
                "DISCONNECTED"
            },
            app.model.sessions.len(),
            app.workers
        )),
        top,
    );
    let status = match &app.search {
        Some(s) => format!("/{s}"),
        None => app.status.clone(),
    };
    f.render_widget(Paragraph::new(status), bottom);
    if let Some(r) = &app.reader {
        reader(f, body, r);
    } else if app.pane == Pane::Feeds {
        feeds(f, body, app);
    } else {
        let [a, b] =
            Layout::vertical([Constraint::Percentage(40), Constraint::Percentage(60)]).areas(body);
        sessions(f, a, app);
        calls(f, b, app);
    }
    if app.help {
        let w = body.width.min(96);
        let inner = usize::from(w.saturating_sub(2)).max(1);
        let rows: usize = HELP
            .iter()
            .map(|l| l.chars().count().div_ceil(inner).max(1))
            .sum();
        let h = (rows as u16 + 2).min(body.height);
        let area = Rect::new(body.x + (body.width - w) / 2, body.y, w, h);
        f.render_widget(Clear, area);
        f.render_widget(
            Paragraph::new(HELP.iter().map(|l| Line::from(*l)).collect::<Vec<_>>())
                .block(block("help (any key closes)", true))
                .wrap(Wrap { trim: false }),
            area,
        );
    }
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn sessions(f: &mut Frame<'_>, area: Rect, app: &App) {
    let rows = app
        .model
        .session_rows(now_ms())
        .into_iter()
        .map(|(c, cols)| {
            let [light, id, state, counts, last] = cols;
            Row::new(vec![
                Cell::from(Span::styled(light, Style::default().fg(colour(&c)))),
                Cell::from(id),
                Cell::from(state),
                Cell::from(counts),
                Cell::from(last),
            ])
        });
    let table = Table::new(
        rows,
        [
            Constraint::Length(3),
            Constraint::Length(16),
            Constraint::Length(15),
            Constraint::Length(18),
            Constraint::Min(10),
        ],
    )
    .header(
        Row::new(["irc", "session", "state", "waiting", "last call"])
            .style(Style::default().add_modifier(Modifier::UNDERLINED)),
    )
    .row_highlight_style(Style::default().add_modifier(Modifier::REVERSED))
    .highlight_symbol("> ")
    .block(block("sessions", app.pane == Pane::Sessions));
    let mut st = TableState::default().with_selected(Some(app.sel_session));
    f.render_stateful_widget(table, area, &mut st);
}

fn calls(f: &mut Frame<'_>, area: Rect, app: &App) {
    let session = app.selected_session().unwrap_or_default();
    let rows = app
        .model
        .call_rows(&session)
        .into_iter()
        .map(|[st, dur, cmd, _run]| {
            let style = if st == "ok" {
                Style::default()
            } else if st.starts_with("run") {
                Style::default().fg(Color::Yellow)
            } else {
                Style::default().fg(Color::Red)
            };
            Row::new(vec![
                Cell::from(Span::styled(st, style)),
                Cell::from(dur),
                Cell::from(cmd),
            ])
        });
    let more = match app.model.history.get(&session) {
        Some(Some(_)) => " (more below)",
        _ => "",
    };
    let title = format!("calls of {session}{more}");
    let table = Table::new(
        rows,
        [
            Constraint::Length(18),
            Constraint::Length(8),
            Constraint::Min(10),
        ],
    )
    .header(
        Row::new(["status", "time", "command"])
            .style(Style::default().add_modifier(Modifier::UNDERLINED)),
    )
    .row_highlight_style(Style::default().add_modifier(Modifier::REVERSED))
    .highlight_symbol("> ")
    .block(block(&title, app.pane == Pane::Calls));
    let mut st = TableState::default().with_selected(Some(app.sel_call));
    f.render_stateful_widget(table, area, &mut st);
}

fn feeds(f: &mut Frame<'_>, area: Rect, app: &App) {
    let [subs, news, saved] = Layout::vertical([
        Constraint::Percentage(35),
        Constraint::Percentage(45),
        Constraint::Percentage(20),
    ])
    .areas(area);
    let rows = app.feeds.iter().map(|s| {
        let health = s["health"].as_str().unwrap_or("?").to_string();
        let style = if health == "ok" {
            Style::default()
        } else {
            Style::default().fg(Color::Red)
        };
        Row::new(vec![
            Cell::from(s["name"].as_str().unwrap_or("").to_string()),
            Cell::from(s["category"].as_str().unwrap_or("-").to_string()),
            Cell::from(format!(
                "{}/{}",
                s["unread"].as_u64().unwrap_or(0),
                s["items"].as_u64().unwrap_or(0)
            )),
            Cell::from(Span::styled(health, style)),
            Cell::from(s["last_fetch"].as_str().unwrap_or("never").to_string()),
            Cell::from(s["url"].as_str().unwrap_or("").to_string()),
        ])
    });
    let table = Table::new(
        rows,
        [
            Constraint::Length(12),
            Constraint::Length(9),
            Constraint::Length(6),
            Constraint::Length(8),
            Constraint::Length(20),
            Constraint::Min(10),
        ],
    )
    .header(
        Row::new(["feed", "category", "unread", "health", "last fetch", "url"])
            .style(Style::default().add_modifier(Modifier::UNDERLINED)),
    )
    .block(block("subscriptions (r reloads)", false));
    f.render_widget(table, subs);
    let rows = app.news.iter().map(|n| {
        Row::new(vec![
            Cell::from(n["source"].as_str().unwrap_or("").to_string()),
            Cell::from(n["title"].as_str().unwrap_or("(untitled)").to_string()),
            Cell::from(n["published_at"].as_str().unwrap_or("").to_string()),
        ])
    });
    let table = Table::new(
        rows,
        [
            Constraint::Length(14),
            Constraint::Min(20),
            Constraint::Length(22),
        ],
    )
    .row_highlight_style(Style::default().add_modifier(Modifier::REVERSED))
    .highlight_symbol("> ")
    .block(block("digest (enter reads)", true));
    let mut st = TableState::default().with_selected(Some(app.sel_news));
    f.render_stateful_widget(table, news, &mut st);
    let rows = app.saved.iter().map(|n| {
        Row::new(vec![
            Cell::from(n["source"].as_str().unwrap_or("").to_string()),
            Cell::from(n["title"].as_str().unwrap_or("(untitled)").to_string()),
            Cell::from(n["saved_at"].as_str().unwrap_or("").to_string()),
        ])
    });
    let table = Table::new(
        rows,
        [
            Constraint::Length(14),
            Constraint::Min(20),
            Constraint::Length(22),
        ],
    )
    .block(block("saved (rss star)", false));
    f.render_widget(table, saved);
}

fn reader(f: &mut Frame<'_>, area: Rect, r: &super::Reader) {
    let h = area.height.saturating_sub(2) as usize;
    let lines: Vec<Line<'_>> = r
        .lines
        .iter()
        .skip(r.scroll)
        .take(h.max(1))
        .map(|l| Line::from(l.as_str()))
        .collect();
    let title = format!(
        "{} · line {}/{} · / search · y copy · esc back",
        r.title,
        (r.scroll + 1).min(r.lines.len()),
        r.lines.len()
    );
    f.render_widget(Paragraph::new(lines).block(block(&title, true)), area);
}

#[cfg(test)]
mod tests;

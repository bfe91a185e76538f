// The question bank lives in BGKBQuestions so the build plugin can make it at build time; users
// of the quiz see one module.
@_exported import BGKBQuestions

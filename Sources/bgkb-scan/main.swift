import BGKBScan
